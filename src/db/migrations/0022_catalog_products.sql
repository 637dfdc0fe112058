-- Catalogue (issue 24): a variant's own image and low-stock threshold; stock movements; product import jobs.
ALTER TABLE "product_variants" ADD COLUMN "image_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "low_stock_threshold" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"variant_id" text NOT NULL,
	"item_id" text NOT NULL,
	"delta" integer NOT NULL,
	"qty_after" integer NOT NULL,
	"unlimited_after" boolean DEFAULT false NOT NULL,
	"reason" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_movements_variant_idx" ON "stock_movements" USING btree ("variant_id","id");--> statement-breakpoint
-- Every change of a variant's stock leaves a movement, whichever code path made it. The writer names the reason
-- for its transaction with set_config('tessera.stock_reason', 'manual' | 'import', true); an unnamed change is a
-- sale when stock goes down (checkout) and a refund when it goes up (a refund that restocks).
CREATE OR REPLACE FUNCTION tessera_stock_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r text := nullif(current_setting('tessera.stock_reason', true), '');
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.qty_in_stock = 0 AND NOT NEW.unlimited THEN RETURN NULL; END IF;
    INSERT INTO stock_movements (variant_id, item_id, delta, qty_after, unlimited_after, reason)
      VALUES (NEW.id, NEW.item_id, NEW.qty_in_stock, NEW.qty_in_stock, NEW.unlimited, coalesce(r, 'manual'));
    RETURN NULL;
  END IF;
  IF NEW.qty_in_stock IS NOT DISTINCT FROM OLD.qty_in_stock AND NEW.unlimited IS NOT DISTINCT FROM OLD.unlimited THEN RETURN NULL; END IF;
  INSERT INTO stock_movements (variant_id, item_id, delta, qty_after, unlimited_after, reason)
    VALUES (NEW.id, NEW.item_id, NEW.qty_in_stock - OLD.qty_in_stock, NEW.qty_in_stock, NEW.unlimited,
      coalesce(r, CASE WHEN NEW.qty_in_stock < OLD.qty_in_stock THEN 'sale' ELSE 'refund' END));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stock_moved AFTER INSERT OR UPDATE OF qty_in_stock, unlimited ON product_variants FOR EACH ROW EXECUTE FUNCTION tessera_stock_moved();--> statement-breakpoint
CREATE TABLE "catalog_import_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"format" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"created_count" integer DEFAULT 0 NOT NULL,
	"updated_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_import_jobs" ADD CONSTRAINT "catalog_import_jobs_website_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;
