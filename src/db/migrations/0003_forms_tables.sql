CREATE TABLE "captcha_spent" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_submission_keys" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"form_id" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"page" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"visitor_cookie" text,
	"spam" boolean DEFAULT false NOT NULL,
	"spam_reason" text,
	"search_text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forms" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'form' NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"submit_button_text" text DEFAULT 'Submit' NOT NULL,
	"submission_message" text DEFAULT 'Thank you!' NOT NULL,
	"post_submission_html" text DEFAULT '' NOT NULL,
	"success_redirect" text DEFAULT '' NOT NULL,
	"disclaimer" text DEFAULT '' NOT NULL,
	"storage" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"captcha" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"advanced" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "captcha_spent_expires_idx" ON "captcha_spent" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "form_submission_keys_expires_idx" ON "form_submission_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "form_submissions_inbox_idx" ON "form_submissions" USING btree ("form_id","spam","created_at");--> statement-breakpoint
CREATE INDEX "forms_website_idx" ON "forms" USING btree ("website_id");