/** Field schemas several areas' wire shapes share. */
import { z } from 'zod';
import { platform as platformMessages } from '../messages.js';

/** An amount of money in the currency's minor units, named in its messages by `label`. */
export const cents = (label: string) =>
  z
    .number({ error: `${label} must be a number.` })
    .int(`${label} must be in whole minor units (cents).`)
    .min(0, `${label} cannot be negative.`)
    .max(1_000_000_000_00, `${label} is too large.`);

/** The publication states of products and posts. */
export const CONTENT_STATUSES = ['published', 'draft', 'scheduled', 'needs-review', 'private'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];
export const contentStatus = z.enum(CONTENT_STATUSES, { error: (i) => platformMessages.notExpectedOption(String(i.input)) });
