// The shell of every HTML page gpuledger writes or serves: one document, its own style and script inline (allowed
// by hash in the Content-Security-Policy, nothing else), the heading with the SIMULATED DATA banner, a table of
// contents, then the sections. Every name that came from the API goes through esc().
import { contentSecurityPolicy, PAGE_CSS, PAGE_JS } from './assets.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content and attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A section's id: stable across runs, so a link can point at it (#s-by-template). */
export function sectionId(name: string): string {
  return `s-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

export interface PageInput {
  title: string;
  /** Lines under the title (period, as-of). */
  lines: readonly string[];
  simulatedAccounts: readonly string[];
  /** Table of contents: [label, href]. */
  nav: Array<[string, string]>;
  /** Already-escaped HTML of the sections. */
  body: string;
  /** 'self' for `serve` (forms go back to it), 'none' for a file. */
  formAction: "'self'" | "'none'";
  /** Extra header HTML (serve: the period picker). */
  controls?: string;
}

export function htmlPage(p: PageInput): string {
  const banner = p.simulatedAccounts.length
    ? `<p class="banner" role="note">SIMULATED DATA – not a real account: ${esc(p.simulatedAccounts.join(', '))}</p>`
    : '';
  const nav = p.nav.length ? `<nav class="sections" aria-label="Sections">${p.nav.map(([label, href]) => `<a href="${esc(href)}">${esc(label)}</a>`).join('')}</nav>` : '';
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(p.formAction)}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">' +
    `<meta name="generator" content="gpuledger"><title>${esc(p.title)}</title><style>${PAGE_CSS}</style></head>\n<body>` +
    `<header class="page"><h1>${esc(p.title)}</h1>${p.lines.map((l) => `<p class="sub">${esc(l)}</p>`).join('')}${banner}${p.controls ?? ''}${nav}</header>\n` +
    `<main>${p.body}</main>\n<script>${PAGE_JS}</script></body></html>\n`
  );
}
