/** Field schemas several areas' wire shapes share. */
import { z } from 'zod';
import { platform as platformMessages } from '../messages.js';
import type { AddressFormat } from '../address-format.js';

/** An amount of money in the currency's minor units, named in its messages by `label`. */
export const cents = (label: string) =>
  z
    .number({ error: `${label} must be a number.` })
    .int(`${label} must be in whole minor units (cents).`)
    .min(0, `${label} cannot be negative.`)
    .max(1_000_000_000_00, `${label} is too large.`);

/** A country of an address form's list: its ISO code and its name in the page's language. */
export type CountryOption = [code: string, name: string];

/** One country's address format as address forms get it (core/address-format.ts has its rules). */
export type { AddressFormat };
/** GET /api/address-format/:country. */
export interface AddressFormatAnswer {
  format: AddressFormat;
}

/** The publication states of products and posts. */
export const CONTENT_STATUSES = ['published', 'draft', 'scheduled', 'needs-review', 'private'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];
export const contentStatus = z.enum(CONTENT_STATUSES, { error: (i) => platformMessages.notExpectedOption(String(i.input)) });

/** A UTF-16 surrogate without its pair (one character each side: linear). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Text up to max characters, without NUL or a lone UTF-16 surrogate (the database refuses both). */
export const storableText = (max: number) =>
  z
    .string()
    .max(max, `Must be ${max} characters or fewer.`)
    .refine((v) => !v.includes('\u0000'), 'Must not contain NUL characters.')
    .refine((v) => !LONE_SURROGATE.test(v), 'Must be valid text (no lone surrogate characters).');

/** A navigation link as GET /api/commondata/GetSiteLayout answers it (and the navigation screen saves it). */
export interface LayoutLink {
  title: string;
  collectionId: string | null;
  externalLink: string | null;
  memberAreaId: string | null;
  children: LayoutLink[];
}
