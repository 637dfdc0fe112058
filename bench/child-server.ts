/**
 * Runs a bench script's own `serve <kind>` mode in a child process (so the load generator and the server
 * do not share an event loop), waits for its first stdout line (a JSON "ready" object) and stops it by
 * closing its stdin. BENCH_PROFILE=<dir> writes a CPU profile of the server.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export async function startChildServer<Ready>(
  scriptUrl: string,
  kind: 'pglite' | 'postgres',
  ...args: string[]
): Promise<{ ready: Ready; stop: () => Promise<void> }> {
  const prof = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', fileURLToPath(scriptUrl), 'serve', kind, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env },
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<Ready>((resolve, reject) => {
    lines.once('line', (l) => {
      try {
        resolve(JSON.parse(l) as Ready);
      } catch (e) {
        reject(e as Error);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    ready,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}
