-- Likes of content items (the like button of the demo theme's journal posts): one row per item and liker,
-- the liker being the random id of the visitor's like cookie, so a visitor counts once per item.
CREATE TABLE "item_likes" (
	"item_id" text NOT NULL REFERENCES "items"("id") ON DELETE CASCADE,
	"liker" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL DEFAULT now(),
	PRIMARY KEY ("item_id", "liker")
);
--> statement-breakpoint
-- Item pages show the count, so a new like moves the content version (see 0013/0015). Per row, so a
-- repeated like (ON CONFLICT DO NOTHING) inserts nothing and moves nothing.
CREATE OR REPLACE FUNCTION tessera_note_site_change_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO site_changes (txid) VALUES (txid_current()) ON CONFLICT (txid) DO NOTHING;
  PERFORM pg_notify('tessera_site_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR DELETE ON item_likes FOR EACH ROW EXECUTE FUNCTION tessera_note_site_change_row();
