// `gpuledger serve`: the report and its drill-downs in a browser, read-only, over the published database.
export { isLoopback, startServe, TOKEN_ENV, type RunningServer, type ServeOptions } from './server.ts';
export { SQL_TIME_LIMIT_MS } from './routes.ts';
