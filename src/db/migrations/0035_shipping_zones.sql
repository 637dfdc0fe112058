-- Shipping by zones: named sets of countries and regions, each with its rates (flat, weight bands, order-value
-- bands, free above a threshold that must be given), local pickup and local delivery. Every shipping option is
-- moved into a zone: the options that shipped to the same countries become one zone's rates ("everywhere"
-- becomes the rest-of-the-world zone), weight tiers become bands, and a "free above" option saved without its
-- threshold (which made every order's shipping free) becomes a flat rate at its price.
CREATE TABLE "shipping_zones" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"name" text NOT NULL,
	"countries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"regions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rest_of_world" boolean DEFAULT false NOT NULL,
	"rates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ordering" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "pickup_locations" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"name" text NOT NULL,
	"address" jsonb NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"ordering" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "local_delivery_areas" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"postcodes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fee_cents" bigint DEFAULT 0 NOT NULL,
	"min_order_cents" bigint DEFAULT 0 NOT NULL,
	"estimate" text DEFAULT '' NOT NULL,
	"ordering" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "shipping_zones" ADD CONSTRAINT "shipping_zones_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickup_locations" ADD CONSTRAINT "pickup_locations_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_delivery_areas" ADD CONSTRAINT "local_delivery_areas_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "shipping_zones" ("id", "website_id", "name", "countries", "rest_of_world", "rates", "ordering")
SELECT substr(md5(o.website_id || ':' || o.countries::text), 1, 24),
	o.website_id,
	CASE WHEN jsonb_array_length(o.countries) = 0 THEN 'Rest of the world'
		ELSE (SELECT string_agg(upper(c), ', ' ORDER BY upper(c)) FROM jsonb_array_elements_text(o.countries) c) END,
	(SELECT coalesce(jsonb_agg(DISTINCT upper(c)), '[]'::jsonb) FROM jsonb_array_elements_text(o.countries) c),
	jsonb_array_length(o.countries) = 0,
	jsonb_agg(jsonb_build_object(
		'id', o.id,
		'name', o.name,
		'kind', CASE WHEN o.kind = 'free_above' AND o.free_above_cents <= 0 THEN 'flat' ELSE o.kind END,
		'priceCents', o.price_cents,
		'freeAboveCents', CASE WHEN o.kind = 'free_above' AND o.free_above_cents > 0 THEN to_jsonb(o.free_above_cents) ELSE 'null'::jsonb END,
		'bands', CASE WHEN o.kind = 'weight' THEN (
			SELECT coalesce(jsonb_agg(jsonb_build_object('from', b.from_g, 'to', b.to_g, 'priceCents', b.price) ORDER BY b.to_g), '[]'::jsonb)
			FROM (
				SELECT coalesce(lag((t ->> 'upToGrams')::bigint) OVER (ORDER BY (t ->> 'upToGrams')::bigint), 0) AS from_g,
					(t ->> 'upToGrams')::bigint AS to_g, (t ->> 'priceCents')::bigint AS price
				FROM jsonb_array_elements(o.weight_rates) t
			) b) ELSE '[]'::jsonb END,
		'estimate', '',
		'enabled', o.enabled
	) ORDER BY o.ordering, o.created_at, o.id),
	min(o.ordering)
FROM "shipping_options" o
GROUP BY o.website_id, o.countries;--> statement-breakpoint
DROP TABLE "shipping_options";
