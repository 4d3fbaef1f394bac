// `metrics import` on a database of two synced simulator accounts (issue 26 §7): a file's account column is honoured –
// each row lands in the account it names, an unknown account is refused naming the known ones – and a scope naming
// an endpoint, template or GPU type the account's cost never carries (which would divide $0) is refused at import,
// with the close match or the known values; a refused file writes nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import type { ConfigInput } from '../../src/config/schema.ts';
import { resolveAccounts } from '../../src/extract/accounts.ts';
import { runSync } from '../../src/extract/sync.ts';
import { openStore } from '../../src/store/database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { gpuledger } from '../helpers/cli.ts';
import { KEY, openTestStore, writeConfig } from '../helpers/sync.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const TEAM_KEY = 'sim-team-a-key';
const ENV = { KEY_MAIN: KEY, KEY_A: TEAM_KEY };
const DAY = '2026-11-18';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('metrics import into a database of two accounts', () => {
  const synced = suiteFixture(() =>
    simulatedAccount(
      'gpuledger-metrics-import-',
      async ({ sim, tmp }) => {
        const config: ConfigInput = {
          apiUrl: sim.url,
          accounts: [
            { name: 'main', apiKeyEnv: 'KEY_MAIN', simulated: true },
            { name: 'team-a', apiKeyEnv: 'KEY_A', simulated: true },
          ],
          sync: { start: 'P5D', sources: ['inventory', 'serverless'], bucketSizes: { serverless: [{ size: 'day' }] } },
          allocation: { categories: { team: { default: 'platform', rules: [{ value: 'imaging', match: { endpoint: ['sdxl*'] } }] } } },
        };
        const configPath = writeConfig(tmp.dir, config);
        const parsed = parseConfig(config, 'test');
        const store = await openTestStore(tmp.db);
        try {
          const result = await runSync({ store, config: parsed, accounts: resolveAccounts(parsed, parsed.apiUrl, ENV), log: silentLogger, client: { initialRatePerSecond: 1000 } });
          expect(result.status).toBe('success');
          // an endpoint of each account that the other account's cost does not carry
          const endpointOf = async (account: string, other: string) =>
            (await store.one<{ name: string }>(
              `select endpoint_name as name from cost_daily where account = $account and family = 'serverless' and endpoint_name is not null
                 and endpoint_name not in (select endpoint_name from cost_daily where account = $other and endpoint_name is not null)
               order by amount desc, endpoint_name limit 1`,
              { account, other },
            ))!.name;
          /** A Serverless endpoint each account's cost carries. */
          return { configPath, mainEndpoint: await endpointOf('main', 'team-a'), teamEndpoint: await endpointOf('team-a', 'main') };
        } finally {
          await store.close();
        }
      },
      { accounts: [{ key: TEAM_KEY, seed: 7 }] },
    ),
  );

  const importFile = (name: string, text: string, ...args: string[]) => {
    const file = join(synced.tmp.dir, name);
    writeFileSync(file, text);
    return { file, run: gpuledger(['--config', synced.configPath, '--db', synced.tmp.db, 'metrics', 'import', file, ...args]) };
  };
  const stored = async () => {
    const store = await openStore({ path: synced.tmp.db, readOnly: true });
    try {
      return await store.all<{ account: string; metric: string; scope: string; value: string }>(
        `select account, metric, scope, value::varchar as value from raw_metrics order by all`,
      );
    } finally {
      await store.close();
    }
  };

  it('puts each row into the account its account column names', async () => {
    const { run } = importFile(
      'both.csv',
      `date,metric,value,scope,account\n${DAY},images,100,endpoint:${synced.mainEndpoint},main\n${DAY},images,7,endpoint:${synced.teamEndpoint},team-a\n${DAY},customers,3,,team-a\n`,
    );
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/imported 3 value\(s\) of customers, images over 1 day\(s\) for account main, team-a/);
    expect(await stored()).toEqual([
      { account: 'main', metric: 'images', scope: `endpoint:${synced.mainEndpoint}`, value: '100.000000' },
      { account: 'team-a', metric: 'customers', scope: '', value: '3.000000' },
      { account: 'team-a', metric: 'images', scope: `endpoint:${synced.teamEndpoint}`, value: '7.000000' },
    ]);
    // rows without an account take --account
    const { run: mixed } = importFile('mixed.csv', `date,metric,value,account\n${DAY},requests,5,\n${DAY},orders,6,team-a\n`, '--account', 'team-a');
    expect((await mixed).code).toBe(0);
    expect((await stored()).filter((x) => ['requests', 'orders'].includes(x.metric))).toEqual([
      { account: 'team-a', metric: 'orders', scope: '', value: '6.000000' },
      { account: 'team-a', metric: 'requests', scope: '', value: '5.000000' },
    ]);
  });

  it.each([
    ['an account the database does not hold', `date,metric,value,account\n${DAY},visits,1,main\n${DAY},visits,2,tema-a\n`, [], (f: string) =>
      `${f} line 3, field account: 'tema-a' has no synced cost in this database, so its metrics would divide nothing; accounts in the database: main, team-a (pass --account NAME, or sync 'tema-a' first)`],
    ['a row naming another account than --account', `date,metric,value,account\n${DAY},visits,1,main\n`, ['--account', 'team-a'], (f: string) =>
      `${f} line 2, field account: 'main' is not --account 'team-a'; leave the field empty, or leave out --account`],
    ['the same value twice, once by --account and once by name', `date,metric,value,account\n${DAY},visits,1,\n${DAY},visits,2,team-a\n`, ['--account', 'team-a'], (f: string) =>
      `${f} line 3, field account: ${DAY} visits '' of account 'team-a' is already given on line 2; one value per day, metric, scope and account`],
    ['a misspelt endpoint (a close match is named)', `date,metric,value,scope,account\n${DAY},visits,1,,main\n${DAY},visits,1,endpoint:${'MAIN'},main\n`, [], undefined],
    ['an endpoint of another account', `date,metric,value,scope,account\n${DAY},visits,1,endpoint:${'TEAM'},main\n`, [], undefined],
    ['a template nobody has', `date,metric,value,scope\n${DAY},visits,1,template:no-such-template-anywhere\n`, ['--account', 'main'], (f: string) =>
      new RegExp(`^${escape(f)} line 2, field scope: no template 'no-such-template-anywhere' in the cost of account 'main', so its unit cost would divide \\$0; (known: .+|it has none)$`)],
    ['a value no allocation category gives', `date,metric,value,scope\n${DAY},visits,1,team:imagnig\n`, ['--account', 'main'], (f: string) =>
      `${f} line 2, field scope: allocation category 'team' gives no value 'imagnig', so its unit cost would divide $0; did you mean 'imaging'?`],
  ] as const)('refuses %s in one line (exit 2) and writes nothing', async (name, text, args, message) => {
    const before = await stored();
    const csv = text.replace('endpoint:MAIN', `endpoint:${synced.mainEndpoint.slice(0, -1)}`).replace('endpoint:TEAM', `endpoint:${synced.teamEndpoint}`);
    const { file, run } = importFile(`${name.replace(/\W+/g, '-')}.csv`, csv, ...args);
    const r = await run;
    expect(r.code, r.stderr).toBe(2);
    const line = r.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    const expected =
      message?.(file) ??
      (name.startsWith('a misspelt')
        ? `${file} line 3, field scope: no Serverless endpoint '${synced.mainEndpoint.slice(0, -1)}' in the cost of account 'main', so its unit cost would divide $0; did you mean '${synced.mainEndpoint}'?`
        : new RegExp(`^${escape(file)} line 2, field scope: no Serverless endpoint '${synced.teamEndpoint}' in the cost of account 'main', so its unit cost would divide \\$0; `));
    if (typeof expected === 'string') expect(line).toBe(`gpuledger: ${expected}`);
    else expect(line.replace(/^gpuledger: /, '')).toMatch(expected);
    expect(await stored()).toEqual(before);
  });
});
