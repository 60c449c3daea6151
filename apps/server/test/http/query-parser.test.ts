import express from 'express';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainFirst, type QueryParser } from '../../src/http/query-parser.js';

/** src/http/query-parser.ts: the same objects as Express's extended parser (qs), for every string. */
describe('the query parser', () => {
  const extended = express().get('query parser fn') as QueryParser;
  const parse = plainFirst(extended);
  const same = (text: string) => {
    const ours = parse(text);
    const theirs = extended(text);
    expect(ours, text).toStrictEqual(theirs);
    expect(Object.getPrototypeOf(ours), text).toBe(Object.getPrototypeOf(theirs));
  };

  it('parses plain strings as qs does, and leaves every other string to qs', () => {
    for (const text of [
      'date=2026-12-03',
      'date=2026-12-03&guest_count=2',
      'from=2026-12-01&to=2026-12-31&guest_count=20',
      'a=',
      'a=1&a=2',
      '__proto__=x',
      'hasOwnProperty=1&constructor=2&toString=3',
      '0=a&1=b',
      'a[b]=1',
      'a.b=1',
      'a=1&&b=2',
      'a',
      '=1',
      'a=%00',
      'a=x+y',
      'a=%E9',
      '',
      Array.from({ length: 25 }, (_, i) => `k${i}=${i}`).join('&'),
    ])
      same(text);
  });

  it('agrees with qs on random query strings', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      'date',
      '_',
      '-',
      '.',
      ':',
      '=',
      '&',
      '%',
      '5B',
      '[',
      ']',
      '+',
      '0',
      '__proto__',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => same(pieces.join(''))),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(fc.string(), (text) => same(text)),
      { numRuns: 1_000 },
    );
  });
});
