/**
 * A text to go into a rendered page at a known place, put in when the page becomes bytes (issue 28).
 *
 * The analytics hook (server/analytics) adds its data island before the page's closing body tag. Done on
 * the string (`slice + island + slice`), that makes a second copy of the whole page the moment anything
 * reads it again, and a page above 128 KB (a 50-product list) lives in V8's large-object space, which
 * maps fresh memory for every such string: about 70 page faults and a millisecond of CPU per copy on this
 * machine. So the hook records the island here instead, and the page cache's onSend hook (the last one,
 * which compresses the page) writes the page's two halves and the island straight into the bytes it
 * compresses. Where the page must stay a string (sent uncompressed, or changed by a hook in between), the
 * island is put into the string as before, so every response carries it in the same place.
 */
import type { FastifyReply } from 'fastify';

const LATE = Symbol('tessera.lateInsert');

export interface LateInsert {
  /** The page (string) the insert was recorded against. */
  page: string;
  /** Where the text goes in it (a UTF-16 offset). */
  at: number;
  text: string;
}

type WithLate = FastifyReply & { [LATE]?: LateInsert };

/** Records that `text` goes into `page` at `at` (replacing any earlier record). */
export function deferInsert(reply: FastifyReply, page: string, at: number, text: string): void {
  (reply as WithLate)[LATE] = { page, at, text };
}

/** The recorded insert, once (it is cleared). */
export function takeInsert(reply: FastifyReply): LateInsert | null {
  const late = (reply as WithLate)[LATE];
  if (!late) return null;
  (reply as WithLate)[LATE] = undefined;
  return late;
}

/** The page with its insert, as three parts (written one after the other they make the page). */
export function insertParts(late: LateInsert): [string, string, string] {
  return [late.page.slice(0, late.at), late.text, late.page.slice(late.at)];
}

/** The page with its insert, as one string. */
export function withInsert(late: LateInsert): string {
  const [a, b, c] = insertParts(late);
  return a + b + c;
}
