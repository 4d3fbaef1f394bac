// The `guardrails` section: what a rule may say, and the one-line errors for what it may not (exit 2, ConfigError).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { EXIT } from '../../src/util/errors.ts';
import { globMatch } from '../../src/util/glob-match.ts';

const budgets = { budgets: [{ name: 'gpu-month', amount: 1000 }] };
const rule = { name: 'brake', trigger: { kind: 'budget', budget: 'gpu-month' }, action: 'stop-pods' };

function refusal(config: unknown): { message: string; exit: number } {
  try {
    parseConfig(config, 'test');
  } catch (e) {
    return { message: (e as Error).message, exit: (e as { exitCode: number }).exitCode };
  }
  throw new Error('the config was accepted');
}

describe('guardrails config', () => {
  it('defaults a rule to manual approval, 5 per run, no exceptions, the actual spend at 100 %', () => {
    const config = parseConfig({ alerts: budgets, guardrails: [rule] }, 'test');
    expect(config.guardrails[0]).toMatchObject({ approval: 'manual', maxPerRun: 5, except: [], trigger: { thresholdPct: 100, on: 'actual' } });
  });

  it('has no action that terminates or deletes', () => {
    const bad = refusal({ alerts: budgets, guardrails: [{ ...rule, action: 'terminate' }] });
    expect(bad.exit).toBe(EXIT.usage);
    expect(bad.message).toMatch(/guardrails\.1\.action/);
    expect(bad.message).toMatch(/stop-pods/);
    expect(bad.message.split('\n')).toHaveLength(1);
  });

  it('refuses a budget the config does not have, and an unknown field', () => {
    expect(refusal({ guardrails: [rule] }).message).toMatch(/budget 'gpu-month' is not in alerts\.budgets/);
    expect(refusal({ alerts: budgets, guardrails: [{ ...rule, delete: true }] }).message).toMatch(/delete/);
  });

  it('refuses an idle_min_workers rule that would stop pods', () => {
    const bad = refusal({ guardrails: [{ name: 'idle', trigger: { kind: 'waste', finding: 'idle_min_workers' }, action: 'stop-pods' }] });
    expect(bad.message).toMatch(/idle_min_workers finding is ended by workers-min-to-zero or scale-endpoint-to-zero/);
  });

  it('refuses two rules of one name', () => {
    expect(refusal({ alerts: budgets, guardrails: [rule, rule] }).message).toMatch(/guardrail names must be unique/);
  });
});

describe('globMatch', () => {
  it('matches * and ? case-sensitively and nothing else specially', () => {
    expect(globMatch('dev-*', 'dev-alice-01')).toBe(true);
    expect(globMatch('dev-?', 'dev-ab')).toBe(false);
    expect(globMatch('Dev-*', 'dev-a')).toBe(false);
    expect(globMatch('[a]*', 'a')).toBe(false);
    expect(globMatch('.*', 'x')).toBe(false);
  });

  it('answers a hostile pattern of thousands of stars in polynomial time', () => {
    const pattern = `${'*a'.repeat(2000)}b`;
    expect(globMatch(pattern, 'a'.repeat(3000))).toBe(false);
  });
});

it("takes the README's guardrail rules as printed, beside the example config's budgets", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Guardrails'));
  const block = /```json\n([\s\S]*?)```/.exec(section)![1]!;
  const example = JSON.parse(readFileSync(new URL('../../config/gpuledger.example.json', import.meta.url), 'utf8'));
  const config = parseConfig({ ...example, ...JSON.parse(`{${block}}`) }, 'README');
  expect(config.guardrails.map((r) => [r.name, r.approval, r.action])).toEqual([
    ['idle-endpoint-workers', 'manual', 'workers-min-to-zero'],
    ['month-over-budget', 'manual', 'stop-pods'],
  ]);
  // and the example config ships the first, so the demo shows its proposal
  expect(parseConfig(example, 'example').guardrails).toEqual([config.guardrails[0]]);
});
