#!/usr/bin/env node
// gpuledger runs its TypeScript sources through tsx, so there is no build step between `npm install` and use.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
