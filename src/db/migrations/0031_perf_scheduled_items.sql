-- The scheduled-publishing sweeps (catalog/routes.ts publishDueProducts, editor/posts.ts publishDuePosts) look
-- for due items every 30 s before they write anything (issue 28): a partial index keeps that look cheap on a
-- large catalogue.
CREATE INDEX IF NOT EXISTS "items_scheduled_idx" ON "items" USING btree ("publish_on") WHERE status = 'scheduled';
