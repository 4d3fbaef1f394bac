// What serve answers before there is a database to read (issue 25 §6): a page saying what to run, instead of a line
// of text on every page. 503 with Retry-After, not 200: the server is up but cannot give the page asked for yet, and
// a health check or script should see that; the page reloads itself (Refresh) and turns into the report as soon as
// a sync publishes the database – each request looks for the file again, so nothing needs a restart.
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Config } from '../config/schema.ts';
import { html, section, type Markup } from '../present/index.ts';
import { DEMO_DB } from '../run/demo.ts';
import { servedPage } from './pages.ts';
import type { Reply } from './routes.ts';

const RELOAD_SECONDS = 10;

export function missingDatabaseAnswer(message: string, request: { dbPath: string; config: Config; url: URL; cwd?: string }): Reply {
  const headers = { 'Retry-After': String(RELOAD_SECONDS), Refresh: String(RELOAD_SECONDS) };
  if (!request.url.pathname.endsWith('.html') && /\.[a-z]+$/.test(request.url.pathname)) {
    return { status: 503, type: 'text/plain; charset=utf-8', body: `${message}\n`, headers };
  }
  const cwd = request.cwd ?? process.cwd();
  const demo = resolve(cwd, DEMO_DB);
  const servingDemo = resolve(cwd, request.dbPath) === demo;
  const rel = relative(cwd, resolve(cwd, request.dbPath));
  const db = rel && !rel.startsWith('..') ? rel : request.dbPath;
  const code = (text: string) => html`<code>${text}</code>`;
  const steps: Markup[] = servingDemo
    ? [html`To see it with simulated data, run ${code('npm start')} without an API key: the demo writes ${code(DEMO_DB)}.`]
    : [
        existsSync(demo)
          ? html`A demo database is there already: stop this server and start ${code(`gpuledger serve --db ${DEMO_DB}`)}.`
          : html`To look around with simulated data, run ${code('npm start')} without an API key (it writes ${code(DEMO_DB)}), then ${code(`gpuledger serve --db ${DEMO_DB}`)}.`,
        html`For a real account, set its API key (${code('RUNPOD_API_KEY')}, or the accounts of ${code('gpuledger.config.json')}) and run ${code(`gpuledger sync --db ${db}`)} – or ${code('npm start')} for the whole nightly job.`,
      ];
  const body = section({
    id: 's-no-database',
    title: 'Nothing to show yet',
    body: html`<p class="error" role="alert">${message}</p><ul>${steps.map((s) => html`<li>${s}</li>`)}</ul><p class="note">This page looks again every ${RELOAD_SECONDS} s and shows the report as soon as the database is published; no restart needed.</p>`,
  });
  const page = servedPage({ config: request.config, url: request.url, simulatedAccounts: [] }, 'gpuledger serve: no database yet', [`gpuledger serve reads ${db}.`], body);
  return { status: 503, type: 'text/html; charset=utf-8', body: page, headers };
}
