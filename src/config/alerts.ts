// The `alerts` section: rules and channels (owned by src/alert/).
import { z } from 'zod';

export const alertsConfigSchema = z.object({}).passthrough().describe('Alert rules and channels.');
export type AlertsConfig = z.infer<typeof alertsConfigSchema>;
