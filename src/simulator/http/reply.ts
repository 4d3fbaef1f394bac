// What a handler answers, before the server applies faults and writes it: status, headers and the whole body
// (bodies are built in full so Content-Length is always known – truncation faults depend on it).
// Errors are RFC 9457 problem documents, `{title, status, detail, errors?}` (billing-api-v2.md §1).
import { STATUS_CODES } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer[];
}

export const JSON_TYPE = 'application/json';
export const PROBLEM_TYPE = 'application/problem+json';

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: [Buffer.from(JSON.stringify(value))] };
}

export function problemReply(status: number, detail: string, extra: { errors?: string[]; headers?: Record<string, string> } = {}): Reply {
  const problem = { title: STATUS_CODES[status] ?? 'Error', status, detail, ...(extra.errors ? { errors: extra.errors } : {}) };
  return { status, headers: { 'Content-Type': PROBLEM_TYPE, ...extra.headers }, body: [Buffer.from(JSON.stringify(problem))] };
}

export const bodyLength = (reply: Reply): number => reply.body.reduce((n, b) => n + b.length, 0);
