// The NDJSON file channel is its own receipt: a delivery repeated because its record was lost (a kill between the
// append and the journal) writes nothing twice, and a line cut short by a kill is repaired rather than glued to.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileChannel } from '../../src/alert/channels/file.ts';
import type { DeliveryContext } from '../../src/alert/channels/channel.ts';
import type { AlertEvent } from '../../src/alert/types.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';


const event = (n: number): AlertEvent => ({
  eventId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  event: 'fired',
  key: `budget:b${n}:sim`,
  rule: 'budget',
  account: 'sim',
  severity: 'critical',
  level: 100,
  title: `Budget b${n} at 100%`,
  message: `b${n} spent everything`,
  details: { budget: `b${n}` },
  asOf: new Date('2026-11-20T12:00:00Z'),
  createdAt: new Date('2026-11-20T12:34:56Z'),
});

const context = (): DeliveryContext => ({ simulated: new Set(), deadline: Date.now() + 10_000, stop: new AbortController().signal, settle: async () => undefined });

function idsIn(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { event_id: string }).event_id);
}

describe('the NDJSON file channel', () => {
  let tmp: TempDir;
  afterEach(() => tmp?.cleanup());

  it('writes an event already in the file no second time, and counts it delivered', async () => {
    tmp = tempDir('gpuledger-file-channel-');
    const path = join(tmp.dir, 'alerts.ndjson');
    const channel = fileChannel(path, 'info');
    const first = await channel.deliver([event(1), event(2)], context());
    expect(first.sent).toEqual([event(1).eventId, event(2).eventId]);
    // the run that wrote them was killed before recording it: the next run owes 1 and 2 again, and 3 is new
    const again = await channel.deliver([event(1), event(2), event(3)], context());
    expect(again).toEqual({ sent: [1, 2, 3].map((n) => event(n).eventId), failed: [], untried: [] });
    expect(idsIn(path)).toEqual([1, 2, 3].map((n) => event(n).eventId));
  });

  it('cuts off its own line torn by a kill and writes that event whole', async () => {
    tmp = tempDir('gpuledger-file-channel-');
    const path = join(tmp.dir, 'alerts.ndjson');
    const channel = fileChannel(path, 'info');
    await channel.deliver([event(1)], context());
    const whole = readFileSync(path, 'utf8');
    // a second append stopped half-way through event 2's line (its event id is already in the fragment)
    await channel.deliver([event(2)], context());
    const torn = readFileSync(path, 'utf8').slice(0, whole.length + 120);
    expect(torn.slice(whole.length)).toContain(event(2).eventId);
    writeFileSync(path, torn);
    await channel.deliver([event(2), event(3)], context());
    expect(idsIn(path)).toEqual([1, 2, 3].map((n) => event(n).eventId));
  });

  it("leaves another writer's unfinished line alone and starts its own on a fresh line", async () => {
    tmp = tempDir('gpuledger-file-channel-');
    const path = join(tmp.dir, 'alerts.ndjson');
    writeFileSync(path, '# written by hand\n');
    appendFileSync(path, 'half a note');
    await fileChannel(path, 'info').deliver([event(1)], context());
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.slice(0, 2)).toEqual(['# written by hand', 'half a note']);
    expect((JSON.parse(lines[2]!) as { event_id: string }).event_id).toBe(event(1).eventId);
    expect(lines[3]).toBe('');
  });
});
