// codeOnly: the SQL a name search reads, comments and string literals gone. A `--` inside a string is text, not a
// comment: read as one, the rest of the line vanished with the string's closing quote, and the view applier refused
// a view whose text said 'gpuledger guardrails apply --approve ' (issue 40).
import { describe, expect, it } from 'vitest';
import { codeOnly } from '../../src/transform/sql-text.ts';

describe('codeOnly', () => {
  it('keeps a string that holds -- as a string, and the code after it', () => {
    expect(codeOnly(`select 'apply --approve ' || id as cmd from Proposals`)).toBe(`select '' || id as cmd from proposals`);
  });
  it('drops a comment that holds a quote, opening no string', () => {
    expect(codeOnly(`select a -- the pod's name\nfrom t where b = 'x'`)).toBe(`select a  \nfrom t where b = ''`);
  });
  it('drops block comments and keeps doubled quotes inside a string', () => {
    expect(codeOnly(`select /* it's */ 'it''s -- no' from T`)).toBe(`select   '' from t`);
  });
});
