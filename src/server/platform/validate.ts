import type { z } from 'zod';
import { HttpError } from '../errors.js';

/** Parses input with a schema; a failure is a 400 whose message is the first issue's own words (the schema's message), with every field's message. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  const errors: Record<string, string> = {};
  for (const i of r.error.issues) errors[i.path.join('.') || '_'] ??= i.message;
  throw new HttpError(400, r.error.issues[0]?.message ?? 'Invalid request', errors);
}
