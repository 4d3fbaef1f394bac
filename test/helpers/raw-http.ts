// A GET with any headers (fetch will not send a Host of our choosing) and from a chosen local address (127.0.0.2 is
// another client on the same machine), answered whole.
import { request } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

export function get(url: string, o: { headers?: Record<string, string>; localAddress?: string } = {}): Promise<Reply> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: o.headers, localAddress: o.localAddress }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts).toString('utf8'), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
