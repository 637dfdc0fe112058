/** Pieces every bench script shares: the process's CPU clock and the route that brackets a CPU profile. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { FastifyInstance } from 'fastify';

/** The process's CPU time (user + system, every thread), in milliseconds. */
export function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/**
 * BENCH_CPU_PROFILE=<dir>: `POST /__bench/profile/start` starts a CPU profile of the server (sampled every
 * 200 µs), `POST /__bench/profile/<name>` stops it and writes `<dir>/<file(name)>.cpuprofile`. The parent
 * brackets each load phase with these, so a profile holds that phase only.
 */
export function profileRoute(app: FastifyInstance, file: (name: string) => string): void {
  const inspector = new Session();
  inspector.connect();
  app.post('/__bench/profile/:name', async (req) => {
    const { name } = req.params as { name: string };
    if (name === 'start') {
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
      await inspector.post('Profiler.start');
    } else {
      const { profile } = await inspector.post('Profiler.stop');
      mkdirSync(process.env.BENCH_CPU_PROFILE!, { recursive: true });
      writeFileSync(`${process.env.BENCH_CPU_PROFILE}/${file(name)}.cpuprofile`, JSON.stringify(profile));
    }
    return {};
  });
}
