// The last-resort handlers of the CLI (issue 12 §3): what escapes every command – an exception in a callback, a
// rejected promise nobody awaited, a wait that can never end – still ends with one line and a documented exit code.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SCENARIO = fileURLToPath(new URL('../helpers/last-resort-scenario.ts', import.meta.url));

function scenario(name: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', SCENARIO, name], { cwd: REPO, env: { ...process.env, GPULEDGER_LOG_LEVEL: '' } }, (error, _stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }),
    );
  });
}

describe('last-resort handlers', () => {
  it.each([
    ['uncaught', /^gpuledger: socket callback failed for key \*\*\* second line \(an unexpected error; --log-level debug shows where\) \[uncaught exception\]\n$/],
    ['rejection', /^gpuledger: a promise nobody awaited \(an unexpected error; .*\) \[unhandled rejection\]\n$/],
    ['stalled', /^gpuledger: stopped before the command finished: it was waiting for something that can no longer answer; .*\n$/],
  ])('ends a process with %s in one line, exit 1, no secret', async (name, line) => {
    const r = await scenario(name);
    expect(r.stderr).toMatch(line);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('sk-live');
  });

  it('says nothing when the command finished, and keeps its exit code', async () => {
    expect(await scenario('finished')).toEqual({ code: 3, stderr: '' });
  });
});
