// The `schedule` section: the jobs the built-in daemon (`gpuledger schedule`) runs on cron expressions, in the
// config's time zone.
import { z } from 'zod';
import { cronProblem } from '../util/cron-expression.ts';

export const JOB_COMMANDS = ['sync', 'run', 'report', 'alerts', 'export'] as const;

export const jobSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, ".", "_" or "-"').describe('Shown in logs; keys the catch-up state.'),
    cron: z
      .string()
      .superRefine((v, ctx) => {
        const problem = cronProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe("5 fields: minute hour day-of-month month day-of-week, e.g. '0 6 * * *' for 06:00 every day."),
    command: z.enum(JOB_COMMANDS).describe('The gpuledger command to run.'),
    args: z.array(z.string()).default([]).describe('Its arguments, e.g. ["--report", "finance-monthly"].'),
    catchUp: z
      .boolean()
      .optional()
      .describe('Run once at start when the last scheduled run was missed (daemon down); default true for jobs that run at most daily.'),
    enabled: z.boolean().default(true),
  })
  .strict();
export type JobConfig = z.infer<typeof jobSchema>;

export const scheduleConfigSchema = z
  .object({
    timeZone: z.string().optional().describe('Time zone of the cron expressions; default the config\'s timeZone.'),
    jobs: z
      .array(jobSchema)
      .default([
        { name: 'hourly-sync', cron: '15 * * * *', command: 'sync', args: [], enabled: true },
        { name: 'nightly', cron: '0 6 * * *', command: 'run', args: [], enabled: true },
        { name: 'finance-monthly', cron: '0 7 1 * *', command: 'report', args: ['--report', 'finance-monthly', '--email'], enabled: true },
      ])
      .refine((j) => new Set(j.map((x) => x.name)).size === j.length, 'job names must be unique')
      .describe('The jobs; default: sync hourly at :15, the nightly run at 06:00, the finance workbook on the 1st at 07:00.'),
    waitForDatabaseMinutes: z
      .number()
      .min(0)
      .max(24 * 60)
      .default(30)
      .describe('How long a due job waits for another gpuledger process (a manual sync) to release the database before it is skipped.'),
  })
  .strict()
  .describe('Jobs for `gpuledger schedule`.');
export type ScheduleConfig = z.infer<typeof scheduleConfigSchema>;
