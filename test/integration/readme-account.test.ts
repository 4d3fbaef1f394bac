// The README's commands of a real account (`sync`, `run`, `--email`, `export postgres`, the backup, guardrails, and
// a key's export then `npm start`): in a folder of their own against the simulator, an SMTP server and PostgreSQL,
// beside readme.test.ts (the demo's folder) in another worker. What both run and why: test/helpers/readme-suite.ts.
import { readmeSuite } from '../helpers/readme-suite.ts';

readmeSuite('account');
