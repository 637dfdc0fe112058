/** The ingest journal on disk: appended before the answer, deleted once stored, replayed once after a crash. */
import { describe, expect, it } from 'vitest';
import { readdirSync, renameSync } from 'node:fs';
import { tempDir } from '../../helpers/process.js';
import { hasOrphans, Journal } from '../../../src/server/analytics/journal.js';
import type { IngestEvent } from '../../../src/server/analytics/rollup.js';

const ev = (name: string): IngestEvent => ({
  source: 'event',
  name,
  at: new Date('2026-01-02T03:04:05.000Z'),
  visitorId: 'v',
  sessionId: null,
  path: '/x',
  itemId: null,
  data: { a: 1 },
});
/** A pid no process has (pid_max is at most 2^22). */
const DEAD = 4_194_999;

describe('ingest journal', () => {
  it('deletes a file once all its events are stored, and keeps the rest', () => {
    const dir = tempDir();
    const j = new Journal(dir, 'db1');
    j.append('w', [ev('a'), ev('b')]);
    j.seal();
    j.append('w', [ev('c')]);
    expect(readdirSync(dir)).toHaveLength(2);
    j.done(1);
    expect(readdirSync(dir)).toHaveLength(2);
    j.done(1);
    expect(readdirSync(dir)).toHaveLength(1);
    j.done(1);
    expect(readdirSync(dir)).toHaveLength(0);
    j.close();
  });

  it("replays a dead process's files of the same database once, oldest first; leaves other databases' files alone", () => {
    const dir = tempDir();
    const crashed = new Journal(dir, 'db1');
    crashed.append('w', [ev('a'), ev('b')]);
    crashed.seal();
    crashed.append('w', [ev('c')]);
    crashed.close();
    new Journal(dir, 'db2').append('w2', [ev('other')]);
    // Make the files look like a dead process's.
    for (const f of readdirSync(dir)) renameSync(`${dir}/${f}`, `${dir}/${f.replace(`.${process.pid}.`, `.${DEAD}.`)}`);
    expect(hasOrphans(dir, 'db1')).toBe(true);
    expect(hasOrphans(dir, 'db3')).toBe(false);

    const next = new Journal(dir, 'db1');
    const got = next.recover();
    expect(got.map((x) => [x.websiteId, x.e.name])).toEqual([
      ['w', 'a'],
      ['w', 'b'],
      ['w', 'c'],
    ]);
    expect(got[0]!.e.at).toEqual(new Date('2026-01-02T03:04:05.000Z'));
    expect(hasOrphans(dir, 'db1')).toBe(false);
    expect(new Journal(dir, 'db1').recover()).toEqual([]);
    next.done(3);
    expect(readdirSync(dir).filter((f) => f.startsWith('db1.'))).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.startsWith('db2.'))).toHaveLength(1);
  });
});
