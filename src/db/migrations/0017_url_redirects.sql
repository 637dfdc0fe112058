-- URL redirects (server/seo): the owner's rules (kind 'manual', imported as text in the URL-mappings format)
-- and the automatic 301s written when a page's, collection's or item's url id changes (kind 'auto').
CREATE TABLE "url_redirects" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL REFERENCES "websites"("id"),
	"kind" text NOT NULL,
	"from_path" text NOT NULL,
	"to_path" text NOT NULL,
	"status" integer NOT NULL DEFAULT 301,
	"ordering" integer NOT NULL DEFAULT 0,
	"created_at" timestamp with time zone NOT NULL DEFAULT now(),
	CONSTRAINT "url_redirects_kind_check" CHECK ("kind" IN ('manual', 'auto')),
	CONSTRAINT "url_redirects_status_check" CHECK ("status" IN (301, 302))
);
--> statement-breakpoint
CREATE INDEX "url_redirects_site_idx" ON "url_redirects" ("website_id", "kind", "ordering");
--> statement-breakpoint
CREATE UNIQUE INDEX "url_redirects_auto_uq" ON "url_redirects" ("website_id", "from_path") WHERE "kind" = 'auto';
--> statement-breakpoint
-- Public pages read the redirects per content version (plugins/site-cache.ts), so writes move it.
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON url_redirects FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
-- An item's new url id: its old address answers 301 to the new one, whichever area or instance renamed it.
-- A redirect from the new address (an earlier rename back) is dropped, and earlier redirects to the old
-- address now point at the new one, so no chain or loop is ever kept.
CREATE OR REPLACE FUNCTION tessera_item_url_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  c_url text;
  c_type integer;
  old_path text;
  new_path text;
BEGIN
  IF NEW.url_id IS NOT DISTINCT FROM OLD.url_id AND NEW.collection_id IS NOT DISTINCT FROM OLD.collection_id THEN
    RETURN NULL;
  END IF;
  SELECT url_id, type INTO c_url, c_type FROM collections WHERE id = OLD.collection_id;
  IF c_url IS NULL THEN RETURN NULL; END IF;
  old_path := '/' || c_url || CASE WHEN c_type = 13 THEN '/p/' ELSE '/' END || OLD.url_id;
  SELECT url_id, type INTO c_url, c_type FROM collections WHERE id = NEW.collection_id;
  IF c_url IS NULL THEN RETURN NULL; END IF;
  new_path := '/' || c_url || CASE WHEN c_type = 13 THEN '/p/' ELSE '/' END || NEW.url_id;
  IF old_path = new_path THEN RETURN NULL; END IF;
  DELETE FROM url_redirects WHERE website_id = NEW.website_id AND kind = 'auto' AND from_path = new_path;
  UPDATE url_redirects SET to_path = new_path WHERE website_id = NEW.website_id AND kind = 'auto' AND to_path = old_path;
  INSERT INTO url_redirects (website_id, kind, from_path, to_path, status)
    VALUES (NEW.website_id, 'auto', old_path, new_path, 301)
    ON CONFLICT (website_id, from_path) WHERE kind = 'auto' DO UPDATE SET to_path = EXCLUDED.to_path;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER item_url_moved AFTER UPDATE OF url_id, collection_id ON items FOR EACH ROW EXECUTE FUNCTION tessera_item_url_moved();
--> statement-breakpoint
-- A collection's (page's) new url id: '/old' and everything under it ('/old/*') answer 301 at the new address.
CREATE OR REPLACE FUNCTION tessera_collection_url_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.url_id IS NOT DISTINCT FROM OLD.url_id THEN RETURN NULL; END IF;
  DELETE FROM url_redirects WHERE website_id = NEW.website_id AND kind = 'auto' AND from_path IN ('/' || NEW.url_id, '/' || NEW.url_id || '/*');
  UPDATE url_redirects SET to_path = '/' || NEW.url_id WHERE website_id = NEW.website_id AND kind = 'auto' AND to_path = '/' || OLD.url_id;
  UPDATE url_redirects SET to_path = '/' || NEW.url_id || '/*' WHERE website_id = NEW.website_id AND kind = 'auto' AND to_path = '/' || OLD.url_id || '/*';
  INSERT INTO url_redirects (website_id, kind, from_path, to_path, status)
    VALUES (NEW.website_id, 'auto', '/' || OLD.url_id, '/' || NEW.url_id, 301),
           (NEW.website_id, 'auto', '/' || OLD.url_id || '/*', '/' || NEW.url_id || '/*', 301)
    ON CONFLICT (website_id, from_path) WHERE kind = 'auto' DO UPDATE SET to_path = EXCLUDED.to_path;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER collection_url_moved AFTER UPDATE OF url_id ON collections FOR EACH ROW EXECUTE FUNCTION tessera_collection_url_moved();
