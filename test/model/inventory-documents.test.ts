// The one declaration per inventory document against the simulator (the contract's stand-in, billing-api-v2.md §3/§4):
// every document the simulator serves and a sync stores carries every declared JSON path, unless the declaration says
// the contract lets it be absent – so a misspelt or invented path fails here, not as a silently null column.
import { describe, expect, it } from 'vitest';
import { INVENTORY_DOCUMENTS } from '../../src/model/inventory-documents/index.ts';
import { INVENTORY_ROUTES } from '../../src/api/schemas.ts';
import { fieldSql } from '../../src/model/generated-inventory-sql.ts';
import { quotedString } from '../../src/util/duckdb-api.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { KEY, openTestStore, smallSyncConfig, syncOnce } from '../helpers/sync.ts';

describe('inventory document declarations', () => {
  const given = suiteFixture(async () => {
    const account = await simulatedAccount('gpuledger-invdocs-', async ({ tmp }) => ({ store: await openTestStore(tmp.db) }), { scale: 'small' });
    await syncOnce(account.store, smallSyncConfig(account.sim));
    return account;
  });

  it.each(INVENTORY_DOCUMENTS.map((d) => [d.kind, d] as const))('%s: every stored document carries each declared path', async (kind, def) => {
    const { store } = given;
    const docs = Number((await store.one(`select count(*) as n from raw_inventory where kind = $1`, [kind]))!.n);
    expect(docs, `the simulator serves no ${kind} document`).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const f of def.fields.filter((x) => !x.mayBeAbsent)) {
      // a list path must reach its array (an empty one is a value); the elements' keys are checked where there are some
      const container = `$.${f.path.split('[*]')[0]}`;
      const row = await store.one(`select count(*) as n from raw_inventory where kind = $1 and not json_exists(doc, ${quotedString(container)})`, [kind]);
      if (Number(row!.n) > 0) missing.push(`${f.path} (${row!.n} of ${docs})`);
    }
    expect(missing, `${kind} documents without a declared path`).toEqual([]);
  });

  it('the client lists every REST kind from its declaration, with the answer key the simulator serves', async () => {
    expect(Object.keys(INVENTORY_ROUTES).sort()).toEqual(['clusters', 'gpus', 'network-volumes', 'pods', 'serverless', 'templates']);
    for (const route of Object.values(INVENTORY_ROUTES)) {
      const res = await fetch(`${given.sim.url}${route.path}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(Object.keys((await res.json()) as object), route.path).toContain(route.key);
    }
  });

  it('reads every declared field to a typed value somewhere: a path that exists but never parses as its type is caught', async () => {
    const { store } = given;
    const never: string[] = [];
    for (const def of INVENTORY_DOCUMENTS) {
      for (const f of def.fields.filter((x) => !x.mayBeAbsent && x.type !== 'varchar[]')) {
        const row = await store.one(`select count(${fieldSql(f)}) as n from raw_inventory where kind = $1`, [def.kind]);
        if (Number(row!.n) === 0) never.push(`${def.kind}.${f.path}`);
      }
    }
    expect(never).toEqual([]);
  });
});
