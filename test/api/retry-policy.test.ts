// The status / error → decision table: which failures a repeat can cure (billing-api-v2.md §5).
import { describe, expect, it } from 'vitest';
import { FAILURE_DECISIONS, failureKind, statusDecision } from '../../src/api/index.ts';

describe('retry policy', () => {
  it.each([
    [500, 'retry'], [502, 'retry'], [503, 'retry'], [504, 'retry'], [408, 'retry'],
    [429, 'wait'],
    [501, 'fail'], [505, 'fail'], [507, 'fail'],
    [400, 'fail'], [401, 'fail'], [403, 'fail'], [404, 'fail'], [405, 'fail'], [409, 'fail'], [422, 'fail'],
  ])('status %i → %s, with a reason', (status, action) => {
    const d = statusDecision(status);
    expect(d.action).toBe(action);
    expect(d.reason.length).toBeGreaterThan(5);
  });

  it.each([
    ['ECONNRESET', 'retry'], ['UND_ERR_SOCKET', 'retry'], ['ECONNREFUSED', 'retry'],
    ['UND_ERR_HEADERS_TIMEOUT', 'retry'], ['UND_ERR_BODY_TIMEOUT', 'retry'], ['UND_ERR_CONNECT_TIMEOUT', 'retry'],
    ['ENOTFOUND', 'fail'], ['UND_ERR_INVALID_ARG', 'fail'], ['SOMETHING_NEW', 'retry'],
  ])('error code %s → %s', (code, action) => {
    expect(FAILURE_DECISIONS[failureKind(Object.assign(new Error('x'), { code }))].action).toBe(action);
  });

  it('decides by the error code, never by the message', () => {
    expect(failureKind(new Error('ECONNRESET invalid authorization header'))).toBe('network');
    expect(failureKind(Object.assign(new Error('socket hang up'), { code: 'UND_ERR_INVALID_ARG' }))).toBe('invalid-argument');
  });

  it('retries truncated bodies and JSON cut off on the way', () => {
    expect(FAILURE_DECISIONS['truncated-body'].action).toBe('retry');
    expect(FAILURE_DECISIONS['incomplete-json'].action).toBe('retry');
  });
});
