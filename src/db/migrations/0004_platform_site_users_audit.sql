CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"account_id" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"before" jsonb,
	"after" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "commerce_preferences" (
	"website_id" text NOT NULL,
	"namespace" text NOT NULL,
	"value" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_user_profiles" (
	"site_user_id" text PRIMARY KEY NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"language" text DEFAULT '' NOT NULL,
	"confirmed_at" timestamp with time zone,
	"failed_sign_ins" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_user_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"site_user_id" text NOT NULL,
	"xsrf_hash" text NOT NULL,
	"remember_me" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_user_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"site_user_id" text NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "commerce_preferences" ADD CONSTRAINT "commerce_preferences_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_user_profiles" ADD CONSTRAINT "site_user_profiles_site_user_id_site_users_id_fk" FOREIGN KEY ("site_user_id") REFERENCES "public"."site_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_user_sessions" ADD CONSTRAINT "site_user_sessions_site_user_id_site_users_id_fk" FOREIGN KEY ("site_user_id") REFERENCES "public"."site_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_user_tokens" ADD CONSTRAINT "site_user_tokens_site_user_id_site_users_id_fk" FOREIGN KEY ("site_user_id") REFERENCES "public"."site_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("website_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "commerce_preferences_uq" ON "commerce_preferences" USING btree ("website_id","namespace");--> statement-breakpoint
CREATE INDEX "site_user_sessions_user_idx" ON "site_user_sessions" USING btree ("site_user_id");--> statement-breakpoint
CREATE INDEX "site_user_tokens_user_idx" ON "site_user_tokens" USING btree ("site_user_id","kind");