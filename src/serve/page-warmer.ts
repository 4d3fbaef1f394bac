// Pages computed when a new file is published, not when the first person asks. serve looks at the published file's
// identity every `pollMs` (a stat: a publish renames a new file over `<db>`, published-reader.ts) and, when it has
// changed, computes the default pages (default-pages.ts) in the background, one at a time, so a person asking for
// another page meanwhile waits for at most one of them. The answers land in serve's answer cache (routes.ts keeps a
// page computed for this file). A request for a page being computed now – by the warm-up or by another request –
// waits on that computation instead of starting a second.
import type { Logger } from '../util/log.ts';
import { errorMessage } from '../util/errors.ts';

/** What the warm-up did for one published file. */
export interface WarmUp {
  identity: string;
  /** Each default page with how long it took (ms) and its status, or why it failed. */
  pages: Array<{ path: string; ms: number; status?: number; error?: string }>;
  /** From noticing the new file to the last page computed (ms). */
  ms: number;
  /** A newer file was published before the pages of this one were all computed. */
  superseded: boolean;
}

export interface PageWarmer<R extends { status: number; body?: unknown }> {
  /** The page's answer: shared with a computation of the same page for the same file already under way. */
  answer(url: URL): Promise<R>;
  /** The warm-up of the file published now, once done (undefined when there is no file or nothing to warm). */
  ready(): Promise<WarmUp | undefined>;
  close(): Promise<void>;
}

export interface PageWarmerOptions<R> {
  /** The published file's identity now ('' when there is none). */
  identity: () => string;
  /** Computes (or finds cached) the answer to one URL. */
  /** `warming`: computed ahead for nobody waiting (serve gives it no time limit: a busy machine only makes it late). */
  compute: (url: URL, warming: boolean) => Promise<R>;
  /** The URLs (path and query) to compute after each publish, in order; none: no warm-up. */
  pages: readonly string[];
  /** How often the published file is looked at (default 1 s). */
  pollMs?: number;
  log: Logger;
}

const BASE = 'http://gpuledger.local';

export function pageWarmer<R extends { status: number; body?: unknown }>(options: PageWarmerOptions<R>): PageWarmer<R> {
  const { identity, compute, pages, log } = options;
  const inFlight = new Map<string, Promise<R>>();
  let warmedFor = '';
  let current: Promise<WarmUp | undefined> = Promise.resolve(undefined);
  let closed = false;

  const computed = (url: URL, warming: boolean): Promise<R> => {
    const key = `${identity()} ${url.pathname}${url.search}`;
    const running = inFlight.get(key);
    if (running) return running;
    const started = compute(url, warming).finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  };
  const answer = (url: URL) => computed(url, false);

  const warm = async (id: string): Promise<WarmUp> => {
    const started = performance.now();
    const done: WarmUp['pages'] = [];
    for (const path of pages) {
      // a newer file (or closing) ends this warm-up; the next look starts the newer file's own
      if (closed || identity() !== id) return { identity: id, pages: done, ms: performance.now() - started, superseded: true };
      const t = performance.now();
      try {
        const reply = await computed(new URL(path, BASE), true);
        done.push({ path, ms: performance.now() - t, status: reply.status });
        // a default page refused (a saved view's filter value in no row, config/views.ts): said now, not when someone asks
        if (reply.status >= 400 && typeof reply.body === 'string') log.warn(`${path} answers ${reply.status}: ${reply.body.trim().split('\n')[0]}`);
      } catch (error) {
        // a page that fails is computed (and its error said) again when someone asks for it
        done.push({ path, ms: performance.now() - t, error: errorMessage(error) });
        log.warn(`computing ${path} after a publish failed: ${errorMessage(error)}`);
      }
    }
    const ms = performance.now() - started;
    log.debug(`default pages computed for the published file in ${Math.round(ms)} ms`);
    return { identity: id, pages: done, ms, superseded: false };
  };

  const look = () => {
    if (closed || pages.length === 0) return;
    const id = identity();
    if (id === '' || id === warmedFor) return;
    warmedFor = id;
    // after the warm-up under way: one page at a time on the store, whichever file it is for
    current = current.then(() => warm(id));
  };

  look();
  const timer = setInterval(look, options.pollMs ?? 1000);
  timer.unref();

  return {
    answer,
    ready: () => {
      look();
      return current;
    },
    close: async () => {
      closed = true;
      clearInterval(timer);
      await current;
    },
  };
}
