CREATE TABLE "engagement_settings" (
	"website_id" text PRIMARY KEY NOT NULL,
	"popup" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cookie_banner" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailing_list_members" (
	"id" text PRIMARY KEY NOT NULL,
	"list_id" text NOT NULL,
	"website_id" text NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"status" text DEFAULT 'subscribed' NOT NULL,
	"source" text NOT NULL,
	"source_ref" text,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mailing_lists" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"name" text NOT NULL,
	"double_opt_in" boolean DEFAULT false NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "engagement_settings" ADD CONSTRAINT "engagement_settings_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_list_members" ADD CONSTRAINT "mailing_list_members_list_id_mailing_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."mailing_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_list_members" ADD CONSTRAINT "mailing_list_members_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_lists" ADD CONSTRAINT "mailing_lists_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_list_members_uq" ON "mailing_list_members" USING btree ("list_id","email_key");--> statement-breakpoint
CREATE INDEX "mailing_list_members_list_idx" ON "mailing_list_members" USING btree ("list_id","status","created","id");--> statement-breakpoint
CREATE INDEX "mailing_lists_website_idx" ON "mailing_lists" USING btree ("website_id","created");