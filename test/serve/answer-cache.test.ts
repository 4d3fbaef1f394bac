import { describe, expect, it } from 'vitest';
import { answerCache } from '../../src/serve/published-reader.ts';

const answer = (n: number) => ({ body: 'x'.repeat(n) });

describe('the answer cache of serve', () => {
  it('drops the least recently used answers first, within its byte budget', () => {
    const cache = answerCache(100);
    cache.set('a', answer(20));
    cache.set('b', answer(20));
    cache.set('c', answer(20));
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    cache.set('d', answer(25));
    cache.set('e', answer(25)); // 20+20+20+25+25 = 110 > 100: b goes first
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].map((k) => Boolean(cache.get(k)))).toEqual([true, true, true, true]);
  });

  it('counts a replaced answer once, keeps nothing larger than a quarter of the budget, and nothing with budget 0', () => {
    const cache = answerCache(100);
    for (let i = 0; i < 10; i++) cache.set('same', answer(24));
    cache.set('other', answer(24));
    cache.set('third', answer(24));
    expect(cache.get('same')).toBeDefined();
    cache.set('big', answer(26));
    expect(cache.get('big')).toBeUndefined();
    const off = answerCache(0);
    off.set('a', answer(1));
    expect(off.get('a')).toBeUndefined();
  });
});
