// `gpuledger serve`: the report and its drill-downs in a browser, read-only, over the published database.
export { isLoopback, startServe, type RunningServer, type ServeOptions } from './server.ts';
export { SQL_TIME_LIMIT_MS } from './sql-answer.ts';
export { TOKEN_ENV } from './token-guard.ts';
