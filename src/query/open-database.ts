// Read-side commands (query, billing, export, sync --plan) read the published database and never wait for a writer;
// the opening itself, and what to say when there is nothing to read yet, live in src/store/shared-database.ts.
export { DatabaseMissingError, openReader as openForReading, withReader as withReadStore } from '../store/shared-database.ts';
