import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { Foreground } from '../../../../src/server/plugins/foreground.js';

const req = () => ({}) as FastifyRequest;

describe('Foreground (background work gives way to requests)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is quiet at once with no request in flight', async () => {
    const fg = new Foreground();
    let done = false;
    void fg.quiet(1000).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(true);
  });

  it('waits for every counted request to end; a page-cache hit (light) stops counting', async () => {
    vi.useFakeTimers();
    const fg = new Foreground();
    const a = req();
    const b = req();
    fg.enter(a);
    fg.enter(b);
    let done = false;
    void fg.quiet(10_000).then(() => (done = true));
    fg.leave(a);
    await Promise.resolve();
    expect(done).toBe(false);
    fg.light(b);
    await Promise.resolve();
    expect(done).toBe(true);
    expect(fg.size).toBe(0);
    // Leaving twice (response end, then connection close) counts once.
    fg.leave(b);
    expect(fg.size).toBe(0);
  });

  it('gives up waiting after maxMs under a steady stream of requests', async () => {
    vi.useFakeTimers();
    const fg = new Foreground();
    fg.enter(req());
    let done = false;
    void fg.quiet(250).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(249);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
