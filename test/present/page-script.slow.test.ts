// The page script as checked in is what its TypeScript source bundles to (scripts/page-script.js runs esbuild, a
// child process: hence a slow file), and the page inlines and hashes exactly that text – a source edited without
// `npm run build` fails here, not in a browser.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, html, pageDocument } from '../../src/present/index.ts';
import { PAGE_JS } from '../../src/present/page-script.generated.ts';
import { generatedPageScript, PAGE_SCRIPT_GENERATED } from '../../scripts/page-script.js';

describe('the page script', () => {
  it('is checked in as its TypeScript source bundles to (run npm run build after editing it)', () => {
    expect(readFileSync(PAGE_SCRIPT_GENERATED, 'utf8')).toBe(generatedPageScript());
  });

  it('is inlined whole in every page, the one script the Content-Security-Policy allows by its hash', () => {
    const page = pageDocument({ title: 'A page', lines: [], simulatedAccounts: [], body: html`<p>rows</p>` });
    expect(page).toContain(`<script>${PAGE_JS}</script>`);
    expect(PAGE_JS).not.toMatch(/<\/script/i);
    const hash = createHash('sha256').update(PAGE_JS).digest('base64');
    expect(contentSecurityPolicy("'none'")).toContain(`script-src 'sha256-${hash}'`);
  });
});
