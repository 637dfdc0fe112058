import { describe, expect, it } from 'vitest';
import { BatchedRead } from '../../../src/server/db-util.js';

/** A read whose statements the test finishes by hand, recording the keys of each. */
function manual() {
  const calls: Array<{ keys: string[]; finish: (found: Map<string, string>) => void; fail: (e: Error) => void }> = [];
  const reader = new BatchedRead<string>(
    (keys) =>
      new Promise((resolve, reject) => {
        calls.push({ keys, finish: resolve, fail: reject });
      }),
    3,
  );
  return { reader, calls };
}

const found = (keys: string[]) => new Map(keys.filter((k) => !k.startsWith('missing')).map((k) => [k, `row ${k}`]));
const tick = () => new Promise((r) => setImmediate(r));

describe('BatchedRead', () => {
  it('starts the first read at once and gathers the callers who ask meanwhile into the next one', async () => {
    const { reader, calls } = manual();
    const a = reader.get('a');
    expect(calls.map((c) => c.keys)).toEqual([['a']]);
    const b = reader.get('b');
    const b2 = reader.get('b');
    const missing = reader.get('missing-1');
    // Asked while a statement was in flight: they wait for it to end, then share one statement.
    expect(calls).toHaveLength(1);
    calls[0]!.finish(found(calls[0]!.keys));
    expect(await a).toBe('row a');
    await tick();
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'missing-1']]);
    calls[1]!.finish(found(calls[1]!.keys));
    expect(await b).toBe('row b');
    expect(await b2).toBe('row b');
    expect(await missing).toBeNull();
    expect(reader.statements).toBe(2);
    // Nothing in flight any more: the next caller starts a statement at once.
    const c = reader.get('c');
    expect(calls).toHaveLength(3);
    calls[2]!.finish(found(['c']));
    expect(await c).toBe('row c');
  });

  it('never asks a key in a statement that began before the caller asked', async () => {
    const { reader, calls } = manual();
    const first = reader.get('a');
    // 'a' again while its statement is in flight: that statement may predate a write the caller saw, so it joins the next.
    const again = reader.get('a');
    expect(again).not.toBe(first);
    calls[0]!.finish(new Map([['a', 'old']]));
    expect(await first).toBe('old');
    await tick();
    expect(calls[1]!.keys).toEqual(['a']);
    calls[1]!.finish(new Map([['a', 'new']]));
    expect(await again).toBe('new');
  });

  it('puts at most max keys in one statement and reads the rest next', async () => {
    const { reader, calls } = manual();
    void reader.get('x');
    const rest = ['a', 'b', 'c', 'd', 'e'].map((k) => reader.get(k));
    calls[0]!.finish(found(['x']));
    await tick();
    expect(calls[1]!.keys).toEqual(['a', 'b', 'c']);
    calls[1]!.finish(found(calls[1]!.keys));
    await tick();
    expect(calls[2]!.keys).toEqual(['d', 'e']);
    calls[2]!.finish(found(calls[2]!.keys));
    expect(await Promise.all(rest)).toEqual(['row a', 'row b', 'row c', 'row d', 'row e']);
  });

  it('fails only the callers of a statement that failed, and goes on with the next', async () => {
    const { reader, calls } = manual();
    const a = reader.get('a');
    const b = reader.get('b');
    calls[0]!.fail(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
    await tick();
    calls[1]!.finish(found(['b']));
    expect(await b).toBe('row b');
    // A read that throws before it returns a promise fails its callers the same way.
    const throwing = new BatchedRead<string>(() => {
      throw new Error('bad statement');
    });
    await expect(throwing.get('a')).rejects.toThrow('bad statement');
  });
});

describe('BatchedRead, deferred (PGlite)', () => {
  it('waits for the check phase before its first statement, so callers of the same turn share it', async () => {
    const calls: string[][] = [];
    const reader = new BatchedRead<string>(async (keys) => (calls.push(keys), new Map(keys.map((k) => [k, `row ${k}`]))), 100, true);
    const asked = ['a', 'b', 'a', 'c'].map((k) => reader.get(k));
    expect(calls).toEqual([]);
    expect(await Promise.all(asked)).toEqual(['row a', 'row b', 'row a', 'row c']);
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect(await reader.get('d')).toBe('row d');
    expect(calls).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
