-- A change also sends a notification: PGlite, which runs inside the one process that may write to it,
-- hands it over before the committing statement returns, so that process knows the version without
-- reading it (plugins/site-cache.ts). PostgreSQL servers read the version instead.
CREATE OR REPLACE FUNCTION tessera_note_site_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO site_changes (txid) VALUES (txid_current()) ON CONFLICT (txid) DO NOTHING;
  PERFORM pg_notify('tessera_site_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The rest of what a public page reads for a visitor moves the content version too (see 0013), so a
-- rendered page can be kept per version (server/pages/page-cache.ts) and the per-request caches of
-- collections, site styles, member locks, engagement and analytics settings are exact, not timed.
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON collections FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON comments FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON forms FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON analytics_settings FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON engagement_settings FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mailing_lists FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON page_layouts FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON site_styles FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON member_areas FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON content_passwords FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
