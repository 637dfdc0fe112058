/**
 * What an error looks like in the logs (issue 21, item 17). A failed query's error carries every bound
 * parameter (emails, addresses, names) in its `params`, its message and its stack, and PostgreSQL's
 * `detail` repeats key values ("Key (email)=(...) already exists"). The log keeps the query text, the
 * codes and the stack frames, and replaces the values with [redacted].
 */

const REDACTED = '[redacted]';
const PARAMS_MARK = '\nparams: ';

function scrubText(text: string): string {
  const at = text.indexOf(PARAMS_MARK);
  if (at === -1) return text;
  // The parameters run to the first stack frame (or the end of the text).
  const frame = text.indexOf('\n    at ', at + PARAMS_MARK.length);
  return text.slice(0, at) + PARAMS_MARK + REDACTED + (frame === -1 ? '' : text.slice(frame));
}

/** A plain object for the log: type, message and stack without parameter values, codes, the cause (3 deep). */
export function safeErr(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 3) return err instanceof Error ? { type: err.name } : err;
  const e = err as Error & Record<string, unknown>;
  const out: Record<string, unknown> = { type: e.constructor?.name ?? e.name, message: scrubText(e.message) };
  if (typeof e.stack === 'string') out.stack = scrubText(e.stack);
  for (const k of ['code', 'statusCode', 'severity', 'routine', 'table', 'column', 'constraint', 'schema'])
    if (e[k] !== undefined) out[k] = e[k];
  if (typeof e.query === 'string') out.query = e.query;
  if (e.params !== undefined) out.params = REDACTED;
  if (e.detail !== undefined) out.detail = REDACTED;
  if (e.where !== undefined) out.where = REDACTED;
  if (e.cause !== undefined) out.cause = safeErr(e.cause, depth + 1);
  return out;
}

/** The err serializer: safeErr in the shape pino's serializers have. */
function errSerializer(err: unknown): { [key: string]: unknown; type: string; message: string; stack: string } {
  const o = safeErr(err);
  if (o && typeof o === 'object')
    return { type: '', message: '', stack: '', ...(o as Record<string, unknown>) } as {
      [key: string]: unknown;
      type: string;
      message: string;
      stack: string;
    };
  return { type: typeof err, message: String(err), stack: '' };
}

/** pino serializers for Fastify's logger: every `{ err }` logged goes through safeErr. */
export const logSerializers = { err: errSerializer };
