// A manual rule's proposal where a person sees it (issue 40 §2, §5): the nightly run's summary and its alert, the
// report's Guardrails sheet – in the workbook it writes before it acts, so the email carries this night's proposal
// –, serve's /guardrails page and rpt_guardrail_proposals; once approved, each of them says it was carried out. The
// page only reads: it names the command, it never acts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { startServe } from '../../src/serve/index.ts';
import { openStore } from '../../src/store/database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { gpuledger } from '../helpers/cli.ts';
import { guardrailRig, podWrites, runningPods, type GuardrailRig } from '../helpers/guardrails.ts';
import { get } from '../helpers/raw-http.ts';
import { KEY } from '../helpers/sync.ts';
import { columnOf, headerRow, readWorkbook, sheet } from '../helpers/workbook-read.ts';

let rig: GuardrailRig | undefined;
afterAll(() => rig?.close());

async function proposals(db: string): Promise<Record<string, unknown>[]> {
  const store = await openStore({ path: db, readOnly: true });
  try {
    return await store.all(`select rule, resource_id, status, approve_command, hourly_cost::varchar as hourly_cost, saving_per_day::varchar as saving_per_day,
      planned_by from rpt_guardrail_proposals order by proposal_id`);
  } finally {
    await store.close();
  }
}

async function guardrailsPage(): Promise<string> {
  const serve = await startServe({ dbPath: rig!.db, config: parseConfig(rig!.configInput, 'test'), host: '127.0.0.1', port: 0, log: silentLogger, warmPages: false });
  try {
    const page = await get(`${serve.url}/guardrails`);
    expect(page.status).toBe(200);
    return page.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  } finally {
    await serve.close();
  }
}

it('shows the waiting proposal in the summary, the workbook, serve and the view, and then that it was carried out', { timeout: 600_000 }, async () => {
  let pod = { id: '', cost: 0 };
  rig = await guardrailRig(async (sim) => {
    pod = (await runningPods(sim))[0]!;
    return [{ name: 'ask', trigger: { kind: 'budget', budget: 'gpu-month' }, action: 'stop-pods', scope: { resource: pod.id } }];
  });
  const run = await gpuledger(['--config', rig.config, '--db', rig.db, 'run', '--out-dir', rig.dir], { GPULEDGER_TEST_KEY: KEY });
  const said = run.stdout + run.stderr;
  const saving = (pod.cost * 24).toFixed(2);
  const m = /guardrails ok +1 manual proposal waiting \(saves ~\$([\d,.]+)\/day\) – approve with: (gpuledger guardrails apply --approve (g[0-9a-f]{10}))/.exec(said);
  expect(m, said).not.toBeNull();
  const [, shownSaving, command, id] = m!;
  expect(shownSaving!.replace(/,/g, '')).toBe(saving);
  // and the alert the team receives names it, as the waiting proposal of tonight's plan
  const alertLine = said.split('\n').find((l) => /alert +fired +(info|warning) +Guardrail ask proposes: stop pod /.test(l));
  expect(alertLine, said).toContain(`saves ~$${shownSaving}/day`);
  expect(podWrites(rig.sim)).toBe(0);

  // the view: the plan the run recorded after its guardrails step, the proposal waiting with its command
  expect(await proposals(rig.db)).toEqual([
    { rule: 'ask', resource_id: pod.id, status: 'waiting for approval', approve_command: command, hourly_cost: pod.cost.toFixed(6), saving_per_day: saving, planned_by: 'run (after the guardrails)' },
  ]);

  // the workbook, written before the guardrails step acted: the plan made before the report holds the proposal
  const xlsx = readdirSync(rig.dir).find((f) => f.endsWith('.xlsx'))!;
  const ws = sheet(await readWorkbook(join(rig.dir, xlsx)), 'Guardrails');
  const head = headerRow(ws, 'Status');
  expect(ws.getRow(head + 1).getCell(columnOf(ws, head, 'Status')).value).toBe('waiting for approval');
  expect(ws.getRow(head + 1).getCell(columnOf(ws, head, 'Approve with')).value).toBe(command);
  const savesCell = ws.getRow(head + 1).getCell(columnOf(ws, head, 'Saves per day'));
  expect(Number(savesCell.value).toFixed(2)).toBe(saving);
  expect(savesCell.numFmt).toMatch(/\$/);

  // serve's page: the proposal, its command, and that the page itself never acts
  const page = await guardrailsPage();
  expect(page).toContain('waiting for approval');
  expect(page).toContain(command);
  expect(page).toMatch(/The latest plan: \d{4}-\d\d-\d\d \d\d:\d\d UTC, by run \(after the guardrails\) – 1 of 1 rule firing, 1 proposal\./);
  expect(page).toContain('This page only reads');
  expect(page).toContain('No guardrail has acted yet.');
  expect(podWrites(rig.sim)).toBe(0);

  // approved: carried out, and the view, the page and the actions say so
  const apply = await rig.run(['apply', '--approve', id!]);
  expect(apply.code, apply.stderr).toBe(0);
  expect((await proposals(rig.db)).map((p) => [p.status, p.approve_command, p.planned_by])).toEqual([['carried out', null, 'guardrails apply']]);
  const after = await guardrailsPage();
  expect(after).toMatch(new RegExp(`${id}-1 done ask`));
  expect(after).not.toContain('No guardrail has acted yet.');
});
