import { pgTable, text, integer, timestamp, jsonb, boolean, index } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';

/**
 * Site forms built by the owner (contact, newsletter, lightbox forms). `fields` holds the form
 * builder's fields (core/forms FormField); the five builder tabs map to the columns below.
 */
export const forms = pgTable(
  'forms',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    name: text('name').notNull(),
    /** 'form' (form block, lightbox) or 'newsletter'. */
    kind: text('kind').notNull().default('form'),
    fields: jsonb('fields').$type<unknown[]>().notNull().default([]),
    submitButtonText: text('submit_button_text').notNull().default('Submit'),
    /** Plain text shown after a successful submission. */
    submissionMessage: text('submission_message').notNull().default('Thank you!'),
    /** Owner-written HTML run after a successful submission. */
    postSubmissionHtml: text('post_submission_html').notNull().default(''),
    successRedirect: text('success_redirect').notNull().default(''),
    disclaimer: text('disclaimer').notNull().default(''),
    /** Storage tab: where notifications go. { email: string, notify: boolean } */
    storage: jsonb('storage').$type<Record<string, unknown>>().notNull().default({}),
    /** Captcha tab: { enabled: boolean } (the provider is a site setting). */
    captcha: jsonb('captcha').$type<Record<string, unknown>>().notNull().default({}),
    /** Advanced tab: { lightbox, lightboxButtonText, rateLimitPerHour, ... } */
    advanced: jsonb('advanced').$type<Record<string, unknown>>().notNull().default({}),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('forms_website_idx').on(t.websiteId)],
);

/** Stored submissions. Suspected spam is kept (spam = true) for the owner to review. */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id').notNull(),
    formId: text('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'cascade' }),
    /** Field id -> value, shaped by field type. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /** The form's fields when the submission came in (for the inbox and the CSV export). */
    fields: jsonb('fields').$type<unknown[]>().notNull().default([]),
    /** pageTitle, pageId, contentSource, pagePath, pagePermissionTypeValue. */
    page: jsonb('page').$type<Record<string, unknown>>().notNull().default({}),
    visitorCookie: text('visitor_cookie'),
    spam: boolean('spam').notNull().default(false),
    spamReason: text('spam_reason'),
    /** Lower-cased text of every answer, for the inbox search. */
    searchText: text('search_text').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('form_submissions_inbox_idx').on(t.formId, t.spam, t.createdAt)],
);

/** One-time submission keys (only their hashes). A key works once and expires. */
export const formSubmissionKeys = pgTable(
  'form_submission_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('form_submission_keys_expires_idx').on(t.expiresAt)],
);

/** Spent proof-of-work captcha solutions: a solution is accepted once. */
export const captchaSpent = pgTable(
  'captcha_spent',
  {
    tokenHash: text('token_hash').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('captcha_spent_expires_idx').on(t.expiresAt)],
);
