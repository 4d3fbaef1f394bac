import { describe, expect, it } from 'vitest';
import { checkCategoryFlag, valueSuffixes } from '../../../src/report/category/index.ts';
import { UsageError } from '../../../src/util/errors.ts';
import { testConfig } from '../../helpers/report-fixtures.ts';

const config = testConfig({ allocation: { categories: { team: { rules: [{ value: 'imaging', match: { endpoint: 'sdxl-*' } }] }, project: {} } } });

function messageOf(f: () => void): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('no error');
}

describe('a report rendered per allocation value', () => {
  it('refuses an unknown category in one line listing the configured ones', () => {
    const m = messageOf(() => checkCategoryFlag({ name: 'showback', category: 'per_value' }, config, 'teams'));
    expect(m).toBe("--category 'teams' is not an allocation category (configured: team, project)");
  });

  it('asks for --category in one line when the report needs one, and refuses it where a report has no use for it', () => {
    expect(messageOf(() => checkCategoryFlag({ name: 'showback', category: 'per_value' }, config, undefined))).toBe(
      "report 'showback' needs --category <name>, the allocation category to report on (configured: team, project)",
    );
    expect(messageOf(() => checkCategoryFlag({ name: 'nightly', category: undefined }, config, 'team'))).not.toContain('\n');
    expect(() => checkCategoryFlag({ name: 'nightly', category: undefined }, config, undefined)).not.toThrow();
    expect(() => checkCategoryFlag({ name: 'showback', category: 'per_value' }, config, 'team')).not.toThrow();
  });

  it("names each value's files by a file-safe part of its own, never two alike", () => {
    expect([...valueSuffixes(['Imaging', 'ML / Research', 'ml-research', '../x', 'Équipe']).values()]).toEqual(['imaging', 'ml-research', 'ml-research-2', 'x', 'equipe']);
  });
});
