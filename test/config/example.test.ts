// The example config in config/ is what users copy: it must stay valid as the schema grows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';

describe('config/gpuledger.example.json', () => {
  it('parses with every section the README documents', () => {
    const raw = JSON.parse(readFileSync(new URL('../../config/gpuledger.example.json', import.meta.url), 'utf8'));
    const config = parseConfig(raw, 'config/gpuledger.example.json');
    expect(config.accounts.map((a) => a.name)).toEqual(['prod', 'research']);
    expect(config.alerts.budgets.map((b) => b.amount)).toEqual(['25000', '3000']);
    expect(config.alerts.channels.map((c) => c.type)).toEqual(['stdout', 'file', 'webhook', 'email']);
    expect(config.schedule.jobs.map((j) => j.cron)).toEqual(['15 * * * *', '0 6 * * *', '0 7 1 * *']);
  });
});
