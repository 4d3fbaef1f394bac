// The report email's HTML body (issue 27 §1: written with src/present like every page): the report's title, figure
// labels, notes, sheet names and the accounts of the banner are text from definitions, config and data – never markup.
import { describe, expect, it } from 'vitest';
import { buildEmail } from '../../../src/report/delivery/email-content.ts';
import type { RenderedReport } from '../../../src/report/render.ts';

const hostile = `<img src=x onerror="alert(1)">'&`;
const E = '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&amp;';

describe('the report email body', () => {
  it('keeps every name from a definition, the config or the data as text, in text and attributes', () => {
    const rendered = {
      path: '/tmp/r.xlsx',
      bytes: 1000,
      summary: {
        report: 'nightly',
        title: `Spend ${hostile}`,
        definitionFile: 'reports/nightly.yaml',
        period: { kind: 'month', start: '2026-11-01', end: '2026-11-30', label: '2026-11', title: `November ${hostile}` },
        asOf: '2026-11-20T12:00:00.000Z',
        generatedAt: '2026-11-20T12:00:00.000Z',
        timeZone: 'UTC',
        figures: [{ label: `Label ${hostile}`, value: '1.5', format: 'usd', text: '$1.50', note: `note ${hostile}`, upIsBad: true }],
        charts: [{ id: 'daily', title: `Chart ${hostile}`, png: Buffer.from(''), svg: '', width: 10, height: 10, email: true, sql: '' }],
        sheets: [{ name: `Sheet ${hostile}`, rows: 1, totals: {} }],
        accounts: [{ account: hostile, simulated: true }],
        simulatedAccounts: [hostile],
        chartFont: { family: 'sans-serif', files: [], source: 'system fonts', textRenders: false },
      },
    } as unknown as RenderedReport;
    const html = buildEmail(rendered, `attached ${hostile}`).html;
    expect(html).not.toContain('<img src=x');
    for (const shown of [`Spend ${E}</h2>`, `November ${E} · data as of`, `>Label ${E}</td>`, `>note ${E}</td>`, `alt="Chart ${E}"`, `<p>attached ${E}</p>`, `Sheets: Sheet ${E} ·`, `account ${E} is simulated`]) {
      expect(html).toContain(shown);
    }
    expect(html).toContain('<img src="cid:daily@gpuledger" width="10" height="10"');
  });

  it('shows a name\'s CR/LF and bidi override escaped in the plain text and the subject (issue 37 §5)', () => {
    const name = 'sdxl-api\u202Egpj.exe\r\nfake line';
    const rendered = {
      path: '/tmp/r.xlsx',
      bytes: 1000,
      summary: {
        report: 'nightly', title: `Spend ${name}`, definitionFile: 'reports/nightly.yaml',
        period: { kind: 'month', start: '2026-11-01', end: '2026-11-30', label: '2026-11', title: 'November' },
        asOf: '2026-11-20T12:00:00.000Z', generatedAt: '2026-11-20T12:00:00.000Z', timeZone: 'UTC',
        figures: [{ label: 'Top endpoint', value: '1.5', format: 'usd', text: '$1.50', note: name, upIsBad: true }],
        charts: [], sheets: [{ name: 'Detail', rows: 1, totals: {} }], accounts: [], simulatedAccounts: [],
        chartFont: { family: 'sans-serif', files: [], source: 'system fonts', textRenders: false },
      },
    } as unknown as RenderedReport;
    const email = buildEmail(rendered, 'attached');
    const shown = 'sdxl-api\\u202Egpj.exe\\r\\nfake line';
    expect(email.text.split('\n')).toEqual(expect.arrayContaining([`Spend ${shown}`, `Top endpoint: $1.50 (${shown})`]));
    expect(email.text).not.toMatch(/[\r\u202E]|^fake line/m);
    expect(email.subject).toBe(`Spend ${shown} – November`);
  });
});
