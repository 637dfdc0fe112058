/**
 * The ingest journal: accepted events appended to a file before the visitor gets 202, deleted once they
 * are in the database; after a crash (kill -9) the next start of the same database on this host replays
 * what a dead process left. At least once: a crash between a batch's commit and the deletion of its file
 * replays that batch again (it is counted twice); nothing acknowledged is lost while the machine stays up
 * (appends reach the page cache, they are not fsynced).
 *
 * Runs in the ingest worker thread (synchronous file calls there block no page).
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { IngestEvent } from './rollup.js';

interface Segment {
  file: string;
  /** Events of this file not yet stored (or dropped). */
  remaining: number;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a dead process of this host left journals of this database (so a start should replay them now). */
export function hasOrphans(dir: string, key: string): boolean {
  const prefix = `${safe(key)}.${safe(hostname())}.`;
  try {
    return readdirSync(dir).some((f) => {
      if (!f.startsWith(prefix) || !f.endsWith('.jnl')) return false;
      const pid = Number(f.slice(prefix.length).split('.')[0]);
      return Number.isInteger(pid) && pid !== process.pid && !alive(pid);
    });
  } catch {
    return false;
  }
}

export class Journal {
  private readonly prefix: string;
  /** This journal's own files: `<prefix><pid>.<tag>.<seq>.jnl` (two apps of one process on one database never share one). */
  private readonly own: string;
  private fd: number | null = null;
  private current: Segment | null = null;
  private readonly sealed: Segment[] = [];
  private seq = 0;

  constructor(
    private readonly dir: string,
    key: string,
  ) {
    this.prefix = `${safe(key)}.${safe(hostname())}.`;
    this.own = `${this.prefix}${process.pid}.${randomBytes(4).toString('hex')}.`;
    mkdirSync(dir, { recursive: true });
  }

  /** Claims the journals a dead process of this host left for this database; answers their events, oldest first. */
  recover(): Array<{ websiteId: string; e: IngestEvent }> {
    const out: Array<{ websiteId: string; e: IngestEvent }> = [];
    const files = readdirSync(this.dir)
      .filter((f) => f.startsWith(this.prefix) && f.endsWith('.jnl'))
      .map((f) => {
        const [pid, tag, n] = f.slice(this.prefix.length).split('.');
        return { f, pid: Number(pid), tag: String(tag), n: Number(n) };
      })
      .filter((x) => Number.isInteger(x.pid) && x.pid !== process.pid && !alive(x.pid))
      .sort((a, b) => a.pid - b.pid || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0) || a.n - b.n);
    for (const { f } of files) {
      const claimed = join(this.dir, `${this.own}${++this.seq}.jnl`);
      try {
        renameSync(join(this.dir, f), claimed); // atomic: two starting processes never both take a file
      } catch {
        continue;
      }
      let n = 0;
      for (const line of readFileSync(claimed, 'utf8').split('\n')) {
        if (!line) continue;
        let rec: { w: string; e: Array<IngestEvent & { at: string }> };
        try {
          rec = JSON.parse(line) as typeof rec;
        } catch {
          continue; // a line cut short by the crash was never acknowledged
        }
        for (const e of rec.e) {
          out.push({ websiteId: rec.w, e: { ...e, at: new Date(e.at) } });
          n++;
        }
      }
      if (n === 0) unlinkSync(claimed);
      else this.sealed.push({ file: claimed, remaining: n });
    }
    return out;
  }

  /** Appends one request's events (before it is answered). */
  append(websiteId: string, events: IngestEvent[]): void {
    if (!this.current || this.fd === null) {
      this.current = { file: join(this.dir, `${this.own}${++this.seq}.jnl`), remaining: 0 };
      this.fd = openSync(this.current.file, 'a');
    }
    writeSync(this.fd, JSON.stringify({ w: websiteId, e: events }) + '\n');
    this.current.remaining += events.length;
  }

  /** Closes the file being appended to: what follows goes to a new one, so files are deleted whole. */
  seal(): void {
    if (!this.current || this.fd === null) return;
    closeSync(this.fd);
    this.sealed.push(this.current);
    this.fd = null;
    this.current = null;
  }

  /** `n` of the oldest journalled events are stored (or dropped): delete the files they emptied. */
  done(n: number): void {
    let left = n;
    while (left > 0) {
      const seg = this.sealed[0] ?? this.current;
      if (!seg) return;
      const k = Math.min(left, seg.remaining);
      seg.remaining -= k;
      left -= k;
      if (seg.remaining > 0) return;
      if (seg === this.current) {
        if (this.fd !== null) closeSync(this.fd);
        this.fd = null;
        this.current = null;
      } else this.sealed.shift();
      try {
        unlinkSync(seg.file);
      } catch {
        /* already gone */
      }
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    if (this.current && this.current.remaining === 0) {
      try {
        unlinkSync(this.current.file);
      } catch {
        /* already gone */
      }
    }
    this.current = null;
  }
}
