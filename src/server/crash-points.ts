/**
 * Named crash points for the kill -9 tests: with TESSERA_CRASH_AT=<name> the process kills itself with
 * SIGKILL when it reaches that point, exactly as `kill -9` would (nothing flushed, no shutdown hooks).
 * Honoured only under the test runner (NODE_ENV=test); a production process ignores the variable.
 *
 * Points: after-charge (checkout: the provider took the money, nothing else recorded yet);
 * after-donation-charge (donations: the same, between a donation's charge and its row).
 */
export function crashPoint(name: string): void {
  if (process.env.NODE_ENV !== 'test') return;
  if (process.env.TESSERA_CRASH_AT !== name) return;
  process.kill(process.pid, 'SIGKILL');
}
