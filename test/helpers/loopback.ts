// A test's own server stays on this machine: it listens on 127.0.0.1, at a port the system picks unless one is given.
import type { AddressInfo, Server } from 'node:net';

/** Listens on 127.0.0.1 and resolves with the port. */
export async function listenOnLoopback(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Closes the server; `drop` first ends the connections it holds (an idle keep-alive would hold the close back). */
export function closeServer(server: Server, drop: () => void = () => undefined): Promise<void> {
  return new Promise((resolve) => {
    drop();
    server.close(() => resolve());
  });
}
