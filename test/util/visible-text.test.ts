import { describe, expect, it } from 'vitest';
import { renderOutput } from '../../src/util/table-text.ts';
import { visibleText } from '../../src/util/visible-text.ts';

describe('names that cannot disguise themselves in terminal, alert and email text', () => {
  it('shows CR, LF, tab, C0 and C1 controls and every bidi mark, embedding, override and isolate escaped', () => {
    expect(visibleText('a\r\nb\tc')).toBe('a\\r\\nb\\tc');
    expect(visibleText('invoice\u202Egpj.exe')).toBe('invoice\\u202Egpj.exe');
    expect(visibleText('\u0000\u001b[31m\u007f\u0085\u009b')).toBe('\\u0000\\u001B[31m\\u007F\\u0085\\u009B');
    const bidi = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u2028', '\u2029'];
    for (const c of bidi) expect(visibleText(c)).toMatch(/^\\u[0-9A-F]{4}$/);
  });

  it('leaves ordinary text, other scripts and a backslash alone, so escaping twice changes nothing', () => {
    for (const t of ['llm-inference-prod', 'C:\\data', 'ñandú 日本 עברית', '=1+1']) expect(visibleText(t)).toBe(t);
    const once = visibleText('x\u202Ey\r\n');
    expect(visibleText(once)).toBe(once);
  });

  it('draws a terminal table whose name with CR/LF stays on its own row', () => {
    const out = renderOutput({ columns: [{ name: 'name\u202E', kind: 'text' }], rows: [['a\r\nb'], ['c']] }, 'table');
    expect(out).toBe('name\\u202E\n----------\na\\r\\nb\nc\n');
  });
});
