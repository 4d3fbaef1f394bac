// The `schedule` section: the jobs the built-in daemon runs (owned by src/schedule/).
import { z } from 'zod';

export const scheduleConfigSchema = z.object({}).passthrough().describe('Jobs for `gpuledger schedule`.');
export type ScheduleConfig = z.infer<typeof scheduleConfigSchema>;
