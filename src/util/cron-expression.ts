// A job's cron expression: 5 fields (minute hour day-of-month month day-of-week), validated and expanded by
// node-cron. gpuledger computes fire times itself (next-fire.ts), so it accepts the syntax crontab and systemd users
// know – numbers, names, ranges, steps, lists – and refuses node-cron's extensions (a seconds field, L, W, #).
import { parse, validateDetailed } from 'node-cron';
import { ConfigError } from './errors.ts';

export interface CronFields {
  /** Ascending minutes 0–59. */
  minutes: number[];
  /** Ascending hours 0–23. */
  hours: number[];
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday … 6 = Saturday (7 is folded into 0 by node-cron). */
  daysOfWeek: ReadonlySet<number>;
  /** The hour field is `*`: the job repeats every hour, so DST gaps and repeats follow the clock (next-fire.ts). */
  everyHour: boolean;
  /** One minute of one hour: the job runs at most once a day (catch-up defaults on). */
  atMostDaily: boolean;
}

const FIELD_HELP = "5 fields: minute hour day-of-month month day-of-week, e.g. '0 6 * * *'";

function numbers(values: (number | string)[]): number[] | undefined {
  return values.every((v): v is number => typeof v === 'number') ? [...values].sort((a, b) => a - b) : undefined;
}

function expand(expression: string): { fields?: CronFields; problem?: string } {
  const count = expression.trim().split(/\s+/).length;
  if (count !== 5) return { problem: `'${expression}' has ${count} field${count === 1 ? '' : 's'}; use ${FIELD_HELP}` };
  const check = validateDetailed(expression);
  if (!check.valid) {
    const first = check.errors[0];
    return { problem: `'${expression}' is not a valid cron expression (${first?.message ?? 'invalid'}); use ${FIELD_HELP}` };
  }
  const parsed = parse(expression);
  const [minutes, hours, dom, months, dow] = [parsed.minute, parsed.hour, parsed.dayOfMonth, parsed.month, parsed.dayOfWeek].map(numbers);
  if (!minutes || !hours || !dom || !months || !dow) {
    return { problem: `'${expression}' uses L, W or #, which gpuledger does not support; use numbers, names, ranges (1-5), steps (*/15) and lists (1,15)` };
  }
  // crontab runs a job when EITHER day field matches, node-cron only when BOTH do: refuse the ambiguous case
  if (dom.length < 31 && dow.length < 7) {
    return { problem: `'${expression}' restricts both day-of-month and day-of-week, which crontab and node-cron read differently; restrict only one` };
  }
  return {
    fields: {
      minutes,
      hours,
      daysOfMonth: new Set(dom),
      months: new Set(months),
      daysOfWeek: new Set(dow),
      everyHour: hours.length === 24,
      atMostDaily: minutes.length === 1 && hours.length === 1,
    },
  };
}

/** Why an expression is refused (one line), or undefined when it is fine. */
export function cronProblem(expression: string): string | undefined {
  return expand(expression).problem;
}

export function parseCron(expression: string): CronFields {
  const { fields, problem } = expand(expression);
  if (!fields) throw new ConfigError(problem ?? `'${expression}' is not a valid cron expression`);
  return fields;
}
