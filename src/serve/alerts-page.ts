// The alerts page of `serve`: the mutes in force (`gpuledger alerts mute`: which incident or rule is silenced, until
// when) above every alert event, newest first, each with its key – the key `alerts mute` takes. On a phone each event
// is a card of its fields (a table of two columns there showed "Event: fired" and nothing else).
import { dataTable, html, section, tableTools, type Markup } from '../present/index.ts';
import { queryAll } from '../report/index.ts';
import type { Store } from '../store/database.ts';
import { PAGE_ROWS, resultTable, servedPage, type PageContext } from './pages.ts';

async function mutesSection(store: Store, ctx: PageContext): Promise<Markup> {
  // a database last written by a gpuledger before mutes has no table for them: nothing is muted
  const known = await store.one(`select 1 from information_schema.tables where table_name = '_meta_alert_mutes'`);
  const result = known
    ? await queryAll(
        store,
        `select mute_key as muted, muted_until, muted_at from _meta_alert_mutes
          where muted_until > now() and unmuted_at is null and muted_at <= now()
          order by muted_until, mute_key`,
        {},
        'alert mutes',
      )
    : { columns: [], rows: [] };
  const table = result.rows.length > 0 ? dataTable({ ...resultTable(result), label: 'muted alerts', timeZone: ctx.config.timeZone }) : html`<p class="note">Nothing is muted.</p>`;
  const how = html`<p class="sub">Alerts silenced with <code>gpuledger alerts mute &lt;key&gt; --for 7d</code>: neither sent nor recorded until then (<code>gpuledger alerts unmute &lt;key&gt;</code> ends it early).</p>`;
  // two short parts of one page, not regions of their own
  return section({ id: 's-muted', title: 'Muted', body: [how, table], landmark: false });
}

export async function alertsPage(store: Store, ctx: PageContext): Promise<string> {
  const result = await queryAll(store, `select created_at, event, severity, rule, account, title, message, alert_key from _meta_alert_events order by created_at desc, event_id limit ${PAGE_ROWS}`, {}, 'alert history');
  const history = section({ id: 's-alerts', title: 'History', landmark: false, body: [tableTools({ label: 'the alert history' }), dataTable({ ...resultTable(result, { emptyText: 'No alert has fired yet.' }), label: 'alert history', timeZone: ctx.config.timeZone, stack: true })] });
  return servedPage(ctx, 'Alerts', ['Alerts muted now, and every alert event, newest first: fired, escalated, resolved.'], html`${await mutesSection(store, ctx)}${history}`);
}
