// A request body, read whole up to 1 MiB (null beyond): GraphQL queries and the write routes' JSON.
import type { IncomingMessage } from 'node:http';

const MAX_BODY = 1 << 20;

export async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
