-- Taxes by product class and the buyer's billing address: a rule taxes one class of goods (standard or
-- reduced; rules saved before classes are standard), and an order keeps the billing address its tax was
-- worked out from (a digital order's tax goes by it) and whether its prices included the tax.
ALTER TABLE "tax_rules" ADD COLUMN "tax_class" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "billing_address" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_included" boolean DEFAULT false NOT NULL;
