ALTER TABLE "orders" ADD COLUMN "fulfilment_status" text DEFAULT 'unfulfilled' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "orders" SET "fulfilment_status" = 'fulfilled' WHERE "status" = 'fulfilled' OR ("status" = 'refunded' AND "fulfilled_at" IS NOT NULL);--> statement-breakpoint
UPDATE "orders" SET "refunded_cents" = "grand_total_cents" WHERE "status" = 'refunded';--> statement-breakpoint
CREATE TABLE "order_fulfilments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"website_id" text NOT NULL,
	"carrier" text DEFAULT '' NOT NULL,
	"tracking_number" text DEFAULT '' NOT NULL,
	"tracking_url" text DEFAULT '' NOT NULL,
	"notify" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_fulfilment_lines" (
	"fulfilment_id" text NOT NULL,
	"order_id" text NOT NULL,
	"line" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "order_fulfilment_lines_pk" PRIMARY KEY("fulfilment_id","line")
);
--> statement-breakpoint
CREATE TABLE "order_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"website_id" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"amount_cents" bigint NOT NULL,
	"provider_cents" bigint DEFAULT 0 NOT NULL,
	"gift_card_cents" bigint DEFAULT 0 NOT NULL,
	"restock" boolean DEFAULT false NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"currency" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"website_id" text NOT NULL,
	"author" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_fulfilments" ADD CONSTRAINT "order_fulfilments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_fulfilment_lines" ADD CONSTRAINT "order_fulfilment_lines_fulfilment_id_fk" FOREIGN KEY ("fulfilment_id") REFERENCES "public"."order_fulfilments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_fulfilments_order_idx" ON "order_fulfilments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_fulfilment_lines_order_idx" ON "order_fulfilment_lines" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_refunds_order_idx" ON "order_refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_refunds_site_created_idx" ON "order_refunds" USING btree ("website_id","created");--> statement-breakpoint
CREATE INDEX "order_notes_order_idx" ON "order_notes" USING btree ("order_id");
