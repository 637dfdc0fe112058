CREATE TABLE "analytics_daily" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"dim" text NOT NULL,
	"count" bigint NOT NULL,
	"total" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_website_id_day_metric_dim_pk" PRIMARY KEY("website_id","day","metric","dim")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_uniques" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"visitor" text NOT NULL,
	CONSTRAINT "analytics_daily_uniques_website_id_metric_day_visitor_pk" PRIMARY KEY("website_id","metric","day","visitor")
);
--> statement-breakpoint
CREATE TABLE "analytics_error_groups" (
	"website_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"message" text NOT NULL,
	"last_stack" text DEFAULT '' NOT NULL,
	"last_url" text DEFAULT '' NOT NULL,
	"last_browser" text DEFAULT '' NOT NULL,
	"count" bigint NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "analytics_error_groups_website_id_fingerprint_pk" PRIMARY KEY("website_id","fingerprint")
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"name" text NOT NULL,
	"visitor_id" text,
	"session_id" text,
	"path" text,
	"item_id" text,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_settings" (
	"website_id" text PRIMARY KEY NOT NULL,
	"tracking_enabled" boolean DEFAULT true NOT NULL,
	"retention_days" integer DEFAULT 90 NOT NULL,
	"cookie_policy" text DEFAULT 'implied' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_settings" ADD CONSTRAINT "analytics_settings_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_daily_metric_idx" ON "analytics_daily" USING btree ("website_id","metric","day");--> statement-breakpoint
CREATE INDEX "analytics_events_received_idx" ON "analytics_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "analytics_events_site_received_idx" ON "analytics_events" USING btree ("website_id","received_at");