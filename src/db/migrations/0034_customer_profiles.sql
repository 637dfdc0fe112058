-- What the owner keeps about a customer, by email address (case-insensitive): a name and phone when the orders
-- do not say, a note and tags.
CREATE TABLE "customer_profiles" (
	"website_id" text NOT NULL REFERENCES "websites"("id"),
	"email_key" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_profiles_pk" PRIMARY KEY ("website_id", "email_key")
);
