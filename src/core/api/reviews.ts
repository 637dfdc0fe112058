/**
 * Reviews and donations: the buyer's review, the owner's moderation list and settings, related products,
 * and the donation settings and list.
 */
import { z } from 'zod';
import { reviews as text } from '../messages.js';
import { RATING_MAX, RATING_MIN, REVIEW_BODY_MAX, REVIEW_NAME_MAX, REVIEW_TITLE_MAX } from '../reviews.js';

const noNul = (s: string) => !s.includes('\u0000');
/** The buyer's review (JSON, or the same fields as a plain form post). */
export const reviewIn = z.object({
  token: z.string().max(200),
  itemId: z.string().max(64),
  rating: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: text.RATING_REQUIRED })
      .int(text.RATING_REQUIRED)
      .min(RATING_MIN, text.RATING_REQUIRED)
      .max(RATING_MAX, text.RATING_REQUIRED),
  ),
  title: z
    .string({ error: text.TITLE_TOO_LONG })
    .trim()
    .max(REVIEW_TITLE_MAX, text.TITLE_TOO_LONG)
    .refine(noNul, text.TITLE_TOO_LONG)
    .optional()
    .default(''),
  body: z
    .string({ error: text.BODY_REQUIRED })
    .trim()
    .min(1, text.BODY_REQUIRED)
    .max(REVIEW_BODY_MAX, text.BODY_TOO_LONG)
    .refine(noNul, text.BODY_REQUIRED),
  authorName: z
    .string({ error: text.NAME_REQUIRED })
    .trim()
    .min(1, text.NAME_REQUIRED)
    .max(REVIEW_NAME_MAX, text.NAME_TOO_LONG)
    .refine(noNul, text.NAME_REQUIRED),
  crumb: z.string().optional(),
});
export type ReviewInput = z.input<typeof reviewIn>;

export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** GET /api/reviews/admin/reviews. */
export const reviewListQuery = z.object({
  status: z.enum(REVIEW_STATUSES).optional(),
  itemId: z.string().max(64).optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export interface ReviewRow {
  id: string;
  itemId: string;
  productTitle: string;
  rating: number;
  title: string;
  body: string;
  authorName: string;
  status: ReviewStatus;
  created: number;
  orderNumber: number | null;
  moderatedAt: number | null;
}
export interface ReviewList {
  reviews: ReviewRow[];
  counts: Record<string, number>;
}

export const reviewSettingsSchema = z.object({
  /** Send review requests at all. */
  requestsEnabled: z.boolean(),
  /** Hours after an order is marked delivered before the review request is emailed (0 to 90 days). */
  requestDelayHours: z
    .number()
    .int()
    .min(0)
    .max(90 * 24),
  /** How many related products the product page shows. */
  relatedCount: z.number().int().min(0).max(12),
});

export type ReviewSettings = z.infer<typeof reviewSettingsSchema>;
/** PUT /api/reviews/admin/settings. */
export const reviewSettingsIn = z.object({ settings: reviewSettingsSchema.partial().strict() }).strict();
export type ReviewSettingsInput = z.input<typeof reviewSettingsIn>;

/** How many related products a product may have. */
export const RELATED_MAX = 12;
/** PUT /api/reviews/admin/related/:itemId. */
export const relatedIn = z
  .object({
    relatedItemIds: z
      .array(z.string().regex(/^[0-9a-f]{24}$/, 'Must be a product id.'))
      .max(RELATED_MAX, `At most ${RELATED_MAX} related products.`),
  })
  .strict();
export type RelatedInput = z.input<typeof relatedIn>;

// ---- Donations ----

const cents = z.number().int().min(1).max(100_000_000);

export const donationSettingsSchema = z.object({
  enabled: z.boolean(),
  title: z.string().trim().min(1).max(120),
  description: z.string().max(2000),
  buttonText: z.string().trim().min(1).max(60),
  /** Suggested amounts in minor units of the site currency. */
  suggestedAmounts: z.array(cents).min(1).max(6),
  minimumCents: cents,
  maximumCents: cents,
});

export type DonationSettings = z.infer<typeof donationSettingsSchema>;

export interface DonationRow {
  id: string;
  amountCents: number;
  currency: string;
  donorName: string;
  email: string;
  message: string;
  testMode: boolean;
  cardBrand: string;
  cardLast4: string;
  created: number;
}

/** GET /api/donations/admin/donations. */
export const donationListQuery = z.object({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
/** PUT /api/donations/admin/settings. */
export const donationSettingsIn = z.object({ settings: donationSettingsSchema.partial().strict() }).strict();
export type DonationSettingsInput = z.input<typeof donationSettingsIn>;
export interface DonationList {
  donations: DonationRow[];
  count: number;
  totals: Array<{ currency: string; amountCents: number }>;
}
