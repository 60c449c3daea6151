import { describe, expect, it } from 'vitest';
import { KeyGate } from '../../src/availability/key-gate.js';
import { ServiceUnavailableError } from '../../src/errors/domain-errors.js';

/** A task that runs until the test releases it, and says when it started. */
function task(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { run: async () => (started.push(name), await done, name), release };
}

describe('KeyGate', () => {
  it('runs `active` requests of a key at once, lets `waiting` more wait, refuses the rest with a 503, and leaves other keys alone', async () => {
    const gate = new KeyGate(2, 1);
    const started: string[] = [];
    const [a1, a2, a3, b1] = ['a1', 'a2', 'a3', 'b1'].map((name) => task(started, name));
    const results = [gate.run('a', a1!.run), gate.run('a', a2!.run), gate.run('a', a3!.run), gate.run('b', b1!.run)];
    await expect(gate.run('a', () => Promise.resolve('a4'))).rejects.toBeInstanceOf(ServiceUnavailableError);
    await Promise.resolve();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    expect([gate.inFlight('a'), gate.inFlight('b')]).toEqual([3, 1]);

    a1!.release();
    await results[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    for (const t of [a2, a3, b1]) t!.release();
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'a3', 'b1']);
    // Nothing in flight, nothing kept: a key's line exists only while it has requests.
    expect([gate.inFlight('a'), gate.inFlight('b')]).toEqual([0, 0]);
    expect(await gate.run('a', () => Promise.resolve('again'))).toBe('again');
  });

  it('frees the place of a request that failed', async () => {
    const gate = new KeyGate(1, 0);
    await expect(gate.run('a', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await gate.run('a', () => Promise.resolve('next'))).toBe('next');
  });
});
