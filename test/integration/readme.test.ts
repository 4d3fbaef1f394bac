// Every step of README.md works for a new user right after the demo (issue 25 §6, issue 38 §1): `npm start` in a
// fresh folder, then each command of the README that reads or changes the demo's folder. The real account's commands
// run beside it in readme-account.test.ts; what both run and why: test/helpers/readme-suite.ts.
import { readmeSuite } from '../helpers/readme-suite.ts';

readmeSuite('demo');
