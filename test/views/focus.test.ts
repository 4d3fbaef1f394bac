import { describe, expect, it } from 'vitest';
import { addInventory, billPods, billPublicEndpoints, billServerless, billVolumes, viewStoreForSuite } from '../helpers/view-store.ts';

// FOCUS 1.2 mandatory columns (FinOps FOCUS specification, "Feature level: Mandatory")
const MANDATORY = [
  'BilledCost', 'BillingAccountId', 'BillingAccountName', 'BillingCurrency', 'BillingPeriodEnd', 'BillingPeriodStart',
  'ChargeCategory', 'ChargeClass', 'ChargeDescription', 'ChargePeriodEnd', 'ChargePeriodStart', 'ContractedCost',
  'EffectiveCost', 'InvoiceIssuerName', 'ListCost', 'PricingQuantity', 'PricingUnit', 'ProviderName', 'PublisherName',
  'ServiceCategory', 'ServiceName', 'ServiceSubcategory',
];
// ChargeClass is null unless the row corrects a previous billing period
const NULLABLE_MANDATORY = new Set(['ChargeClass']);

describe('focus_cost', () => {
  const store = viewStoreForSuite(async (store) => {
    await addInventory(store, [
      { kind: 'gpu_type', id: 'NVIDIA GeForce RTX 4090', doc: { name: 'RTX 4090', pool: 'ADA_24' } },
      { kind: 'template', id: 't1', doc: { name: 'vLLM', image: 'vllm:1' } },
      { kind: 'pod', id: 'p1', doc: { name: 'svc', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 1 }, template: 't1', dataCenterId: 'US-TX-3' } },
    ]);
    await billPods(store, [
      { pod: 'p1', start: '2026-10-30T00:00:00Z', gpu: '16.560000', disk: '0.240000' },
      { pod: 'p1', size: 'hour', start: '2026-10-30T10:00:00Z', gpu: '0.690000' },
      { pod: 'p1', size: 'hour', start: '2026-10-31T23:00:00Z', gpu: '0.690000' },
    ]);
    await billServerless(store, [{ endpoint: 'e1', start: '2026-10-30T00:00:00Z', gpu: '3.000000' }]);
    await billVolumes(store, [{ volume: 'v1', start: '2026-10-30T00:00:00Z', highPerformance: '0.500000' }]);
    await billPublicEndpoints(store, [{ start: '2026-10-30T00:00:00Z', amount: '0.200000' }]);
  });

  it('has every FOCUS 1.2 mandatory column, non-null where the spec requires it, with DECIMAL costs', async () => {
    const cols = await store.all<{ column_name: string; data_type: string }>(
      `select column_name, data_type from information_schema.columns where table_name = 'focus_cost'`,
    );
    const types = Object.fromEntries(cols.map((c) => [c.column_name, c.data_type]));
    for (const name of MANDATORY) expect(types, name).toHaveProperty(name);
    for (const name of ['BilledCost', 'EffectiveCost', 'ListCost', 'ContractedCost', 'PricingQuantity']) expect(types[name]).toMatch(/^DECIMAL/);
    for (const name of ['ResourceId', 'ResourceName', 'ResourceType', 'SkuId', 'RegionId', 'Tags']) expect(types, name).toHaveProperty(name);
    const nulls = await store.one<Record<string, string>>(
      `select ${MANDATORY.filter((c) => !NULLABLE_MANDATORY.has(c)).map((c) => `count(*) filter (where ${c} is null) as ${c}`).join(', ')} from focus_cost`,
    );
    expect(Object.values(nulls!).every((n) => n === '0')).toBe(true);
  });

  it('has one row per billed amount at one bucket size per day, adding up to the billed total', async () => {
    const rows = await store.all(
      `select ServiceName, SkuMeter, ChargePeriodStart::varchar as start, BilledCost, SkuId, RegionId, ResourceId, Tags::varchar as tags,
              BillingPeriodStart::varchar as period, ServiceCategory, ServiceSubcategory
       from focus_cost order by ServiceName, start, SkuMeter`,
    );
    expect(rows).toHaveLength(6);
    const pods = rows.filter((r) => r.ServiceName === 'Pods');
    // the hour on 10-30 is covered by the day bucket; the hour on 10-31 is not
    expect(pods.map((r) => [r.start, r.SkuMeter, r.BilledCost])).toEqual([
      ['2026-10-30 00:00:00+00', 'disk', '0.240000'],
      ['2026-10-30 00:00:00+00', 'gpu', '16.560000'],
      ['2026-10-31 23:00:00+00', 'gpu', '0.690000'],
    ]);
    expect(pods[1]).toMatchObject({ SkuId: 'NVIDIA GeForce RTX 4090', RegionId: 'US-TX-3', ResourceId: 'p1', period: '2026-10-01 00:00:00+00', ServiceCategory: 'Compute', ServiceSubcategory: 'Containers' });
    expect(JSON.parse(String(pods[1]!.tags))).toEqual({ template_id: 't1', template: 'vLLM', gpu_type: 'RTX 4090', attribution: 'inventory' });
    const total = await store.one(`select sum(BilledCost)::varchar as total from focus_cost`);
    expect(total).toEqual({ total: '21.190000' });
  });
});
