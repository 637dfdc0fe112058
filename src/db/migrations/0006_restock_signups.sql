CREATE TABLE "restock_sends" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"product_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"trigger" text NOT NULL,
	"requested_by" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"max_emails" integer,
	"pending_at_start" integer DEFAULT 0 NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"origin" text,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	"finished" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "restock_sign_ups" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"product_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"is_join_mailing_list" boolean DEFAULT false NOT NULL,
	"language" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"send_id" text,
	"unsubscribed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "restock_suppressions" (
	"website_id" text NOT NULL,
	"email_key" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "restock_suppressions_website_id_email_key_pk" PRIMARY KEY("website_id","email_key")
);
--> statement-breakpoint
ALTER TABLE "restock_sends" ADD CONSTRAINT "restock_sends_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restock_sends" ADD CONSTRAINT "restock_sends_product_id_items_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restock_sends" ADD CONSTRAINT "restock_sends_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restock_sign_ups" ADD CONSTRAINT "restock_sign_ups_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restock_sign_ups" ADD CONSTRAINT "restock_sign_ups_product_id_items_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restock_sign_ups" ADD CONSTRAINT "restock_sign_ups_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restock_suppressions" ADD CONSTRAINT "restock_suppressions_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "restock_sends_active_uq" ON "restock_sends" USING btree ("variant_id") WHERE status IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "restock_sends_created_idx" ON "restock_sends" USING btree ("website_id","created","id");--> statement-breakpoint
CREATE UNIQUE INDEX "restock_sign_ups_pending_uq" ON "restock_sign_ups" USING btree ("variant_id","email_key") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "restock_sign_ups_variant_idx" ON "restock_sign_ups" USING btree ("variant_id","status","created","id");--> statement-breakpoint
CREATE INDEX "restock_sign_ups_product_idx" ON "restock_sign_ups" USING btree ("product_id","created","id");--> statement-breakpoint
CREATE INDEX "restock_sign_ups_email_idx" ON "restock_sign_ups" USING btree ("website_id","email_key");