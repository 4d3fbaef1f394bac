import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { ConfigError } from '../../src/util/errors.ts';

const RULES = [
  { value: 'imaging', match: { endpoint: 'sdxl-*' } },
  { value: 'research', match: { template: 'trainer', family: 'pod' } },
  { value: 'platform', match: { family: ['storage', 'public_endpoint'] } },
];
const team = (over: Record<string, unknown>) => ({ allocation: { categories: { team: { rules: RULES, ...over } } } });

describe('allocation config', () => {
  it('accepts the issue’s example and fills in the default value and split method', () => {
    const config = parseConfig(team({ split: [{ from: 'platform', to: ['imaging', 'research'] }] }), 'test');
    expect(config.allocation.categories.team).toEqual({
      rules: RULES,
      default: 'unallocated',
      split: [{ from: 'platform', to: ['imaging', 'research'], by: 'proportional' }],
    });
    expect(parseConfig({}, 'test').allocation).toEqual({ categories: {} });
  });

  it.each([
    ['an unknown match key', team({ rules: [RULES[0], { value: 'x', match: { tag: 'a' } }] }), /^config f\.json: allocation: category 'team' rule 2 match key 'tag': unknown key \(accepted: account, family, component, resource, template, endpoint, gpuType, dataCenter\)$/],
    ['an unknown rule key', team({ rules: [{ value: 'x', match: { family: 'pod' }, priority: 1 }] }), /category 'team' rule 1: unknown key 'priority' \(accepted: value, match\)$/],
    ['an empty glob', team({ rules: [RULES[0], RULES[1], { value: 'p', match: { family: ['storage', ''] } }] }), /category 'team' rule 3 match key 'family': empty glob/],
    ['an empty list of globs', team({ rules: [{ value: 'p', match: { endpoint: [] } }] }), /category 'team' rule 1 match key 'endpoint': empty glob/],
    ['a rule without keys', team({ rules: [{ value: 'p', match: {} }] }), /category 'team' rule 1: match names no key/],
    ['a split to an unknown value', team({ split: [{ from: 'platform', to: ['imaging', 'vision'] }] }), /category 'team' split 1 key 'to': unknown value 'vision' \(values of the rules and default: 'imaging', 'platform', 'research', 'unallocated'\)$/],
    ['a split from an unknown value', team({ split: [{ from: 'shared', to: ['imaging'] }] }), /category 'team' split 1 key 'from': unknown value 'shared'/],
    ['a percentage that is not a number', team({ split: [{ from: 'platform', to: ['imaging', 'research'], by: { imaging: 'half', research: 50 } }] }), /category 'team' split 1 key 'by': the percentage of 'imaging' must be a number above 0, got "half"$/],
    ['a category named __proto__ (read from JSON)', JSON.parse('{"allocation":{"categories":{"__proto__":{"rules":[{"value":"a","match":{"family":"pod"}}]}}}}'), /^config f\.json: allocation: category '__proto__': not a category name/],
    ['a bad field of the second split, counted from 1', team({ split: [{ from: 'platform', to: ['imaging'] }, { from: 'imaging', to: 'research' }] }), /allocation\.categories\.team\.split\.2\.to: /],
    ['percentages not summing to 100', team({ split: [{ from: 'platform', to: ['imaging', 'research'], by: { imaging: 70, research: 20 } }] }), /category 'team' split 1 key 'by': percentages sum to 90, not 100$/],
    ['percentages for other values', team({ split: [{ from: 'platform', to: ['imaging', 'research'], by: { imaging: 70, unallocated: 30 } }] }), /category 'team' split 1 key 'by': give a percentage for exactly the 'to' values/],
    ['an unknown method', team({ split: [{ from: 'platform', to: ['imaging'], by: 'weighted' }] }), /category 'team' split 1 key 'by': unknown method 'weighted'/],
    ['a cycle between splits', team({ split: [{ from: 'platform', to: ['imaging'] }, { from: 'imaging', to: ['research', 'platform'] }] }), /category 'team' split 1 key 'to': splits form a cycle \(platform → imaging → platform\)$/],
    ['a split of a split’s target', team({ split: [{ from: 'platform', to: ['imaging'] }, { from: 'imaging', to: ['research'] }] }), /category 'team' split 1 key 'to': 'imaging' is itself split by split 2/],
    ['a value split twice', team({ split: [{ from: 'platform', to: ['imaging'] }, { from: 'platform', to: ['research'] }] }), /category 'team' split 2 key 'from': 'platform' is already split by split 1$/],
  ])('refuses %s with one line naming the category, the 1-based index and the key', (_what, raw, message) => {
    let error: unknown;
    try {
      parseConfig(raw, 'f.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).message).toMatch(message);
  });
});
