CREATE TABLE "site_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"txid" bigint NOT NULL,
	CONSTRAINT "site_changes_txid_unique" UNIQUE("txid")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tessera_note_site_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO site_changes (txid) VALUES (txid_current()) ON CONFLICT (txid) DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON websites FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON items FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_variants FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_reviews FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON related_products FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON commerce_preferences FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
