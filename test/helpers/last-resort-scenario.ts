// A process that fails in one of the ways no command's own error handling sees, with the last-resort handlers of
// the real CLI installed (last-resort.test.ts runs it): `node --import tsx last-resort-scenario.ts <scenario>`.
import { installLastResort, markFinished } from '../../src/cli/last-resort.ts';
import { registerSecret } from '../../src/util/secrets.ts';

installLastResort();
const secret = 'sk-live-last-resort-0123456789';
registerSecret(secret);

switch (process.argv[2]) {
  case 'uncaught':
    setTimeout(() => {
      throw new Error(`socket callback failed for key ${secret}\nsecond line`);
    }, 1);
    break;
  case 'rejection':
    void Promise.reject(new TypeError('a promise nobody awaited'));
    break;
  case 'stalled':
    // waits for something that can never happen: the event loop runs dry (Node's silent exit 13 under a top-level await)
    await new Promise(() => {});
    break;
  case 'finished':
    markFinished();
    process.exitCode = 3;
    break;
}
