/**
 * Engagement: the promo popup and cookie banner settings the owner saves, and the mailing lists and
 * their members as the owner's screens list them.
 */
import { z } from 'zod';
import { COOKIE_BANNER_MODES, POPUP_ACTIONS, POPUP_ANCHORS, POPUP_TRIGGERS } from '../engagement.js';

const url = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === '' || /^(https?:\/\/|\/(?!\/))/.test(v), 'Use a path starting with / or an http(s) address.');

const pagePath = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .regex(/^\/[^\s<>"']*$/, 'Each page is a path starting with /.');

export const popupSchema = z.object({
  enabled: z.boolean(),
  title: z.string().trim().max(200),
  text: z.string().max(2000),
  imageUrl: url,
  imageAlt: z.string().max(300),
  action: z.enum(POPUP_ACTIONS),
  buttonText: z.string().trim().min(1, 'The button needs a text.').max(60),
  buttonUrl: url,
  placeholder: z.string().max(100),
  successText: z.string().max(500),
  /** The list popup sign-ups join (null: the default list). */
  listId: z.string().max(64).nullable(),
  anchor: z.enum(POPUP_ANCHORS),
  trigger: z.enum(POPUP_TRIGGERS),
  delaySeconds: z.number().int().min(0).max(600),
  scrollPercent: z.number().int().min(1).max(100),
  pages: z.union([z.literal('all'), z.array(pagePath).max(100)]),
  showAgainDays: z.number().int().min(0).max(365),
  captcha: z.boolean(),
});
export type PopupSettings = z.infer<typeof popupSchema> & { version: number };

export const cookieBannerSchema = z.object({
  mode: z.enum(COOKIE_BANNER_MODES),
  /** The banner's text (empty: the default text of the mode). */
  text: z.string().max(2000),
  /** A link to the owner's privacy policy (optional). */
  policyUrl: url,
});
export type CookieBannerSettings = z.infer<typeof cookieBannerSchema>;

export interface ListJson {
  id: string;
  name: string;
  doubleOptIn: boolean;
  isDefault: boolean;
  subscribedCount: number;
  pendingCount: number;
  unsubscribedCount: number;
  created: string;
}

export interface MemberJson {
  id: string;
  email: string;
  status: string;
  source: string;
  created: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
}
