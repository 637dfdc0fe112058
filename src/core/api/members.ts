/**
 * The members area: unlocking the site or a page, joining a member area, lesson progress, and the owner's
 * member areas, passwords, members, paywall events, files and video courses.
 */
import { z } from 'zod';
import { isEmailAddress } from '../email.js';
import { EMAIL_MAX_LENGTH } from '../constants.js';
import { members as messages, platform as platformMessages } from '../messages.js';

/** Only https embeds of a third-party player, or files of this site, play in a lesson: a player's https page. */
export function safeEmbed(u: unknown): URL | null {
  if (typeof u !== 'string' || u.length > 500) return null;
  try {
    const url = new URL(u);
    return url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** A video file of the site's own: a path on this host. */
export function safeFile(u: unknown): string | null {
  return typeof u === 'string' && /^\/(?!\/)[\w\-/.%]+$/.test(u) && u.length <= 300 ? u : null;
}

const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000'), 'Must not contain NUL characters.');

/** POST /api/members/unlock (JSON or the lock page's plain post). */
export const unlockBody = z.object({
  target: text(64),
  password: z.string({ error: messages.PASSWORD_REQUIRED }).min(1, messages.PASSWORD_REQUIRED).max(200),
  next: text(300).optional(),
  crumb: z.string().optional(),
});

/** POST /api/members/areas/:areaId/join: a visitor without an account gives an address and a password. */
export const joinBody = z.object({
  email: z
    .string({ error: platformMessages.ENTER_VALID_EMAIL })
    .trim()
    .max(EMAIL_MAX_LENGTH, platformMessages.ENTER_VALID_EMAIL)
    .refine((s) => isEmailAddress(s), platformMessages.ENTER_VALID_EMAIL)
    .optional(),
  password: z.string().min(8, 'Use at least 8 characters for your password.').max(1024).optional(),
  displayName: text(100).optional(),
  crumb: z.string().optional(),
});

/** POST /api/members/areas and PUT /api/members/areas/:id. */
export const areaBody = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,47}$/, 'Use lowercase letters, digits and dashes for the id.')
      .optional(),
    name: z.string({ error: messages.NAME_REQUIRED }).trim().min(1, messages.NAME_REQUIRED).max(100),
    description: text(2000).optional().default(''),
    access: z.enum(['free', 'once', 'subscription']),
    priceCents: z.number().int().min(0).max(100_000_000).optional().default(0),
    billingUnit: z.enum(['WEEK', 'MONTH', 'YEAR']).optional().default('MONTH'),
    billingValue: z.number().int().min(1).max(52).optional().default(1),
    collectionIds: z.array(z.string().max(64)).max(200).optional().default([]),
  })
  .refine((a) => a.access === 'free' || a.priceCents > 0, { message: messages.PRICE_REQUIRED, path: ['priceCents'] });

/** PUT /api/members/site-password and /api/members/page-passwords/:collectionId: null removes it. */
export const passwordBody = z.object({ password: z.string().min(4, messages.PASSWORD_TOO_SHORT).max(200).nullable() });
/** POST /api/members/progress (the lesson player's reports, or the lesson page's plain post). */
export const progressBody = z.object({
  itemId: z.string().max(64),
  completed: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  positionSeconds: z.coerce.number().int().min(0).max(100_000).optional(),
  /** The player's own duration of the video (used when the lesson has none set). */
  durationSeconds: z.coerce.number().int().min(0).max(100_000).optional(),
  /** The player reached the end. */
  ended: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  crumb: z.string().optional(),
});
/** POST /api/members/courses. */
export const courseBody = z.object({
  title: z.string().trim().min(1, 'Required').max(200),
  urlId: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'Use lowercase letters, digits and dashes for the address.')
    .optional(),
  description: text(2000).optional().default(''),
});
/** POST /api/members/courses/:id/lessons: a video file of the site's own, or a third-party player's page. */
export const lessonBody = z
  .object({
    title: z.string().trim().min(1, 'Required').max(200),
    urlId: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,79}$/)
      .optional(),
    chapter: text(200).optional().default(''),
    body: text(20_000).optional().default(''),
    videoUrl: z.string().max(300).optional(),
    embedUrl: z.string().max(500).optional(),
    durationSeconds: z.number().int().min(0).max(100_000).optional().default(0),
  })
  .refine((l) => (l.videoUrl ? !!safeFile(l.videoUrl) : !!safeEmbed(l.embedUrl)), { message: messages.VIDEO_SOURCE, path: ['videoUrl'] });

/** GET /api/members/members. */
export const membersQuery = z.object({ areaId: z.string().max(64).optional() });

export type AreaAccess = 'free' | 'once' | 'subscription';
export type AreaRequest = z.output<typeof areaBody>;
export type AreaForm = z.input<typeof areaBody>;
export type LessonInput = z.input<typeof lessonBody>;

/** A member area as the owner's calls answer it (creating or changing one). */
export interface MemberArea {
  id: string;
  name: string;
  description: string;
  access: AreaAccess;
  priceCents: number;
  billingUnit: string;
  billingValue: number;
  productItemId: string | null;
  collectionIds: string[];
}
/** A member file: a download or video only members may fetch. */
export interface MemberFile {
  id: string;
  name: string;
  url: string;
  size: number;
}
/** GET /api/members/settings: passwords, areas (with their price in words), the collections an area may hold, files. */
export interface MembersSettings {
  currency: string;
  sitePasswordSet: boolean;
  pagePasswords: Array<{ collectionId: string; title: string }>;
  areas: Array<MemberArea & { priceText: string }>;
  collections: Array<{ id: string; title: string; urlId: string; typeName: string }>;
  files: Array<MemberFile & { contentType: string }>;
}
/** A member of an area. */
export interface Member {
  areaId: string;
  siteUserId: string;
  email: string;
  displayName: string;
  status: string;
  joinedAt: string | null;
  orderId: string | null;
}
/** GET /api/members/members. */
export interface MembersList {
  members: Member[];
}
/** GET /api/members/analytics: the paywall events of the last 30 days. */
export interface PaywallEventCounts {
  events: Array<{ name: string; count: number }>;
}
/** PUT /api/members/site-password. */
export interface SitePasswordAnswer {
  sitePasswordSet: boolean;
}
/** PUT /api/members/page-passwords/:collectionId. */
export interface PagePasswordAnswer {
  collectionId: string;
  passwordSet: boolean;
}
/** POST /api/members/courses (201). */
export interface CourseCreated {
  id: string;
  urlId: string;
  title: string;
  fullUrl: string;
}
/** POST /api/members/courses/:id/lessons (201). */
export interface LessonCreated {
  id: string;
  urlId: string;
  fullUrl: string;
}
/** POST /api/members/unlock as JSON. */
export interface UnlockAnswer {
  ok: true;
  next: string;
}
/** POST /api/members/areas/:areaId/join as JSON: where to go next, or (202) to check the mailbox. */
export type JoinAnswer = { next: string } | { message: string };
/** POST /api/members/progress as JSON: the lesson's state and how many of the course's lessons are done. */
export interface ProgressAnswer {
  ok: true;
  completed: boolean;
  done: number;
}
