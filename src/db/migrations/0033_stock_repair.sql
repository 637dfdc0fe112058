-- Issue 38: a sale took an unlimited variant's count down too (to -388 after a load test), and the product could
-- not be saved again ("Stock cannot be negative"). Checkout no longer touches an unlimited variant's count; the
-- counts that went below 0 are set back to 0 (a manual stock movement, as an owner's correction), and a check
-- keeps any later code path from writing a negative count again.
SELECT set_config('tessera.stock_reason', 'manual', true);--> statement-breakpoint
UPDATE "product_variants" SET "qty_in_stock" = 0 WHERE "qty_in_stock" < 0;--> statement-breakpoint
SELECT set_config('tessera.stock_reason', '', true);--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_qty_not_negative" CHECK ("qty_in_stock" >= 0);
