CREATE TABLE "content_passwords" (
	"website_id" text NOT NULL,
	"target" text NOT NULL,
	"password_hash" text NOT NULL,
	"nonce" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_passwords_website_id_target_pk" PRIMARY KEY("website_id","target")
);
--> statement-breakpoint
CREATE TABLE "member_area_members" (
	"area_id" text NOT NULL,
	"site_user_id" text NOT NULL,
	"status" text NOT NULL,
	"cart_id" text,
	"order_id" text,
	"joined_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_area_members_area_id_site_user_id_pk" PRIMARY KEY("area_id","site_user_id")
);
--> statement-breakpoint
CREATE TABLE "member_areas" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"access" text DEFAULT 'free' NOT NULL,
	"price_cents" bigint DEFAULT 0 NOT NULL,
	"billing_unit" text DEFAULT 'MONTH' NOT NULL,
	"billing_value" integer DEFAULT 1 NOT NULL,
	"product_item_id" text,
	"collection_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_files" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_progress" (
	"site_user_id" text NOT NULL,
	"item_id" text NOT NULL,
	"collection_id" text NOT NULL,
	"position_seconds" integer DEFAULT 0 NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_progress_site_user_id_item_id_pk" PRIMARY KEY("site_user_id","item_id")
);
--> statement-breakpoint
ALTER TABLE "content_passwords" ADD CONSTRAINT "content_passwords_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_area_members" ADD CONSTRAINT "member_area_members_area_id_member_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."member_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_area_members" ADD CONSTRAINT "member_area_members_site_user_id_site_users_id_fk" FOREIGN KEY ("site_user_id") REFERENCES "public"."site_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_areas" ADD CONSTRAINT "member_areas_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_files" ADD CONSTRAINT "member_files_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_progress" ADD CONSTRAINT "video_progress_site_user_id_site_users_id_fk" FOREIGN KEY ("site_user_id") REFERENCES "public"."site_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_progress" ADD CONSTRAINT "video_progress_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_area_members_cart_idx" ON "member_area_members" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "member_area_members_user_idx" ON "member_area_members" USING btree ("site_user_id");--> statement-breakpoint
CREATE INDEX "member_areas_site_idx" ON "member_areas" USING btree ("website_id");--> statement-breakpoint
CREATE INDEX "video_progress_course_idx" ON "video_progress" USING btree ("site_user_id","collection_id");