// A child process for the store test: statements started and not awaited, then the store closed at once – what a
// caller does when it returns a store's promise from inside `try { … } finally { await store.close() }` (it was
// bench/serve.ts's crash). DuckDB used after closing hangs, segfaults or throws bad_weak_ptr, so this runs in a process
// of its own that the test can time out. Prints each statement's answer. Usage: node --import tsx close-mid-statement.ts DB
import { openStore } from '../../src/store/database.ts';

const path = process.argv[2]!;
for (let i = 0; i < 5; i++) {
  const store = await openStore({ path, readOnly: true, command: 'test' });
  const viaStore = store.one<{ n: string }>('select sum(amount)::varchar as n from facts');
  const viaConnection = store.connection.runAndReadAll('select count(*)::varchar as n from facts, range(20)');
  await store.close();
  const [a, b] = await Promise.all([viaStore, viaConnection]);
  process.stdout.write(`${a!.n} ${String(b.getRowsJson()[0]![0])}\n`);
}
