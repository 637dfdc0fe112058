import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, 'N passed, N failed, N skipped', that any CI can read. With
 * TESSERA_TEST_TIMES=<file> it also writes each test file's seconds (collect, setup and tests), slowest first.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = errors.length;
    let skipped = 0;
    for (const m of modules) {
      let failedHere = 0;
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed outside its tests (its import or a beforeAll) counts once, even when its tests were skipped.
      failed += failedHere || (m.state() === 'failed' ? 1 : 0);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    const timesFile = process.env.TESSERA_TEST_TIMES;
    if (timesFile) writeFileSync(timesFile, fileTimes(modules));
  }
}

function fileTimes(modules: ReadonlyArray<TestModule>): string {
  const rows = modules.map((m) => {
    const d = m.diagnostic();
    const seconds = (d.collectDuration + d.setupDuration + d.duration) / 1000;
    return { seconds, name: `${m.project.name} ${m.relativeModuleId}` };
  });
  rows.sort((a, b) => b.seconds - a.seconds);
  const total = rows.reduce((sum, r) => sum + r.seconds, 0);
  return (
    [`${total.toFixed(1)} file-seconds in ${rows.length} files`, ...rows.map((r) => `${r.seconds.toFixed(1)}\t${r.name}`)].join('\n') + '\n'
  );
}
