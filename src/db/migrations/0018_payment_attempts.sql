CREATE TABLE "payment_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"state" text DEFAULT 'created' NOT NULL,
	"provider" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"payment_id" text,
	"input" jsonb NOT NULL,
	"order_id" text,
	"note" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "applies_to_gift_cards" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_key_uq" ON "payment_attempts" USING btree ("website_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "payment_attempts_open_idx" ON "payment_attempts" USING btree ("state","updated");
