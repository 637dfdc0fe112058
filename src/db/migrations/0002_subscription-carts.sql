CREATE TABLE "subscription_carts" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"site_user_id" text,
	"item_id" text NOT NULL,
	"sku" text NOT NULL,
	"quantity" integer NOT NULL,
	"additional_fields" text DEFAULT '' NOT NULL,
	"purchase_price_cents" bigint NOT NULL,
	"is_purchased" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "cart_entries_cart_idx";--> statement-breakpoint
ALTER TABLE "subscription_carts" ADD CONSTRAINT "subscription_carts_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_carts_token_uq" ON "subscription_carts" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "cart_entries_cart_idx" ON "cart_entries" USING btree ("cart_id","item_id","sku");