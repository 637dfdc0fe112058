import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { items } from './content.js';

/** Likes of content items: one row per item and liker (the visitor's like-cookie id), migration 0029. */
export const itemLikes = pgTable(
  'item_likes',
  {
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    liker: text('liker').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.liker] })],
);
