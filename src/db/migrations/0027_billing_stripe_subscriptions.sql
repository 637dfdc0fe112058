-- Subscriptions through Stripe Billing (issue 25): which provider bills a subscription and its ids there, the
-- Stripe Price per plan and amount (reused until the amount or the period changes), the Stripe Customer per
-- shopper's email, the first invoice's PaymentIntent linked to its Stripe subscription until the order is made,
-- and renewal orders linked to their subscription (one per invoice: idempotency key 'stripe-invoice:<id>').
ALTER TABLE subscriptions ADD COLUMN provider text NOT NULL DEFAULT 'test';
--> statement-breakpoint
ALTER TABLE subscriptions ADD COLUMN provider_subscription_id text;
--> statement-breakpoint
ALTER TABLE subscriptions ADD COLUMN provider_customer_id text;
--> statement-breakpoint
ALTER TABLE subscriptions ADD COLUMN cancel_at timestamp with time zone;
--> statement-breakpoint
ALTER TABLE subscriptions ADD COLUMN current_period_end timestamp with time zone;
--> statement-breakpoint
ALTER TABLE subscriptions ADD COLUMN canceled_at timestamp with time zone;
--> statement-breakpoint
CREATE UNIQUE INDEX subscriptions_provider_sub_uq ON subscriptions (provider_subscription_id) WHERE provider_subscription_id IS NOT NULL;
--> statement-breakpoint
ALTER TABLE orders ADD COLUMN subscription_id text;
--> statement-breakpoint
CREATE INDEX orders_subscription_idx ON orders (subscription_id) WHERE subscription_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE stripe_prices (
  id text PRIMARY KEY,
  product_id text NOT NULL,
  sku text NOT NULL,
  amount_cents bigint NOT NULL,
  currency text NOT NULL,
  interval text NOT NULL,
  interval_count integer NOT NULL,
  created timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX stripe_prices_plan_uq ON stripe_prices (sku, amount_cents, currency, interval, interval_count);
--> statement-breakpoint
CREATE TABLE stripe_customers (
  email text PRIMARY KEY,
  customer_id text NOT NULL,
  created timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE stripe_billing_links (
  payment_intent_id text PRIMARY KEY,
  subscription_id text NOT NULL,
  customer_id text NOT NULL,
  cancel_at timestamp with time zone,
  created timestamp with time zone NOT NULL DEFAULT now()
);
