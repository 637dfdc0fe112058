/**
 * The page and post editor (/api/editor, /api/config/posts): pages with their drafts, publishing and
 * schedules, posts' bodies, site styles, uploads and the canvas's rendered blocks.
 */
import { z } from 'zod';
import type { PageLayout, PageSummary } from '../layout.js';
import { platform as platformMessages } from '../messages.js';
import { contentStatus as status } from './common.js';
import type { PostCover, PostFields } from '../content.js';

export type { PageSummary, PostCover, PostFields };

/** The states a page's draft can be saved in (publishing is its own call). */
export const DRAFT_STATUSES = ['draft', 'needs-review', 'private'] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];

const DATE_TIME = 'Choose a valid date and time.';
export const idParam = z.object({ id: z.string().trim().min(1).max(64) });
const version = z.number({ error: 'version is required' }).int().min(0);
const layoutIn = z.unknown().refine((v) => v !== undefined && v !== null, { message: 'layout is required' });

export const draftIn = z.object({ version, layout: layoutIn, status: z.enum(DRAFT_STATUSES).optional() });
export const publishIn = z.object({ version, layout: z.unknown().optional() });
export const scheduleIn = z.object({
  version,
  publishAt: z.iso.datetime({ offset: true, error: DATE_TIME }),
  layout: z.unknown().optional(),
});
export const versionIn = z.object({ version });

/** A post's body: a layout, or (admins only, raw HTML mode) the whole body as HTML. */
const postHtml = z.string().max(500_000).optional();
export const postDraftIn = z.object({ version, layout: z.unknown().optional(), html: postHtml });
export const postPublishIn = z.object({
  version,
  layout: z.unknown().optional(),
  html: postHtml,
  publishOn: z.iso.datetime({ offset: true, error: DATE_TIME }).optional(),
});

export const stylesIn = z.object({ version, changes: z.record(z.string().max(100), z.unknown()) });
export const renameIn = z.object({ name: z.unknown() });
export const renderIn = z.object({ layout: z.unknown() });

/** Where a new page goes in the main navigation. */
export const navigationIn = z.union(
  [
    z.object({ position: z.enum(['first', 'last']) }),
    z.object({ position: z.literal('folder'), folder: z.number().int().min(0).max(199) }),
  ],
  { error: 'Choose where the page goes in the navigation: first, last or under a folder.' },
);
export type NavPlacement = z.infer<typeof navigationIn>;

export const newPageIn = z.object({
  title: z.string({ error: 'Enter a title.' }).trim().min(1, 'Enter a title.').max(300),
  urlId: z.string().trim().max(200).optional(),
  navigation: navigationIn.optional(),
});

/** GET /api/editor/pages. */
export interface PagesList {
  pages: PageSummary[];
  collections: Array<{ id: string; title: string; typeName: string }>;
  products: Array<{ id: string; title: string }>;
  /** kind 'newsletter' is a mailing list (the newsletter block's sign-up). */
  forms: Array<{ id: string; name: string; kind?: string | null }>;
  /** The main navigation's folders, by their index in it (a new page can go under one). */
  navFolders: Array<{ index: number; title: string }>;
}

/** A page as the editor opens it: its draft, what is published, and warnings by block. */
export interface PageDoc {
  page: PageSummary;
  layout: PageLayout;
  published: PageLayout | null;
  warnings: Record<string, string>;
}

/** The answer to a saved draft or a publish. */
export interface SavedPage {
  page: PageSummary;
  layout: PageLayout;
  warnings?: Record<string, string>;
}

/** An uploaded file, as the editor's media library lists it. */
export interface Upload {
  id: string;
  name: string;
  kind: 'image' | 'file';
  contentType: string;
  bytes: number;
  status: 'processing' | 'ready' | 'failed' | 'cancelled';
  error: string | null;
  url: string;
  originalSize: string | null;
  createdAt: string;
}

/** The canvas's picture of some blocks: their HTML from the site's own partials, with the site's CSS. */
export interface BlockPictures {
  blocks: Record<string, { name: string; html: string }>;
  css: string;
  stylesheets: string[];
}

/** A post as the editor opens it. */
export interface PostDoc extends PageDoc {
  post: PostFields;
  /** The site's time zone: publish dates are shown and chosen on its clocks. */
  timeZone: string;
  /** Raw HTML mode (the body as HTML) is offered to admins only. */
  canWriteHtml: boolean;
}

/** A post in the posts list, and the answer to a created or saved post. */
export interface PostRow extends Omit<PostFields, 'cover'> {
  id: string;
  version: number;
  cover: PostCover | null;
}

/** GET /api/config/posts. */
export interface PostsList {
  journals: Array<{ id: string; title: string; urlId: string }>;
  posts: PostRow[];
  commentsDefault: number;
  /** The site's time zone: dates are shown on its clocks. */
  timeZone: string;
}

/** A journal post's fields (/api/config/posts): a new post, or an edit (which keeps what it leaves out). */
export const postIn = z.object({
  version: z.number().int().optional(),
  collectionId: z.string().max(64).optional(),
  title: z.string({ error: 'Enter a title.' }).trim().min(1, 'Enter a title.').max(300),
  urlId: z.string().trim().max(200).optional(),
  /** The classic HTML body (raw HTML: an admin's, see rawBodyGuard). Left out, an edit keeps the stored body (the editor writes it as blocks). */
  body: z.string().max(500_000).optional(),
  excerpt: z.string().max(2000).optional().default(''),
  /** Left out, a new post is by the signed-in staff member (their display name) and an edit keeps the stored author. */
  author: z.string().max(200).optional(),
  /** The cover image (an uploaded image), null to remove it; left out, an edit keeps it. */
  cover: z
    .object({
      assetUrl: z
        .string()
        .max(300)
        .regex(/^\/uploads\/[A-Za-z0-9._-]+$/, 'Choose an uploaded image.'),
      altText: z.string().max(250).optional().default(''),
      originalSize: z
        .string()
        .max(20)
        .regex(/^\d{1,6}x\d{1,6}$/)
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
  // Lengths checked by postLimits (tag 50, category 25 characters). Left out, an edit keeps the stored ones.
  tags: z.array(z.string().trim().min(1).max(1000)).max(100).optional(),
  categories: z.array(z.string().trim().min(1).max(1000)).max(100).optional(),
  status,
  publishOn: z.iso.datetime({ offset: true, error: 'Choose a valid date and time.' }).optional(),
  /** 1 opens the post's comments, 0 closes them. Left out, a new post follows the site's comments setting and an edit keeps the stored state. */
  commentState: z.union([z.literal(0), z.literal(1)], { error: (i) => platformMessages.notExpectedOption(String(i.input)) }).optional(),
});

/** A collection's settings and its navigation title (/api/config/collections/:id). */
export const collectionIn = z.object({
  version: z.number().int(),
  title: z.string().trim().min(1, 'Enter a title.').max(200),
  navigationTitle: z.string().trim().max(200).optional(),
  urlId: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(10_000).optional(),
  enabled: z.boolean().optional(),
  /** Keep search engines away: the page is tagged noindex and left out of the sitemap and feeds (server/seo). */
  noindex: z.boolean().optional(),
});
/** A classic page: a collection with an HTML body. */
export const classicPageIn = collectionIn.extend({ body: z.string().max(500_000).optional().default('') });
export const newClassicPageIn = classicPageIn.omit({ version: true });
