-- The product pages' structured data and the product feed show the store's shipping rates, so a change to
-- the shipping zones, pickup locations or local delivery areas moves the content version too (see 0013 and
-- 0015) and no kept page keeps an old rate.
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shipping_zones FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pickup_locations FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();--> statement-breakpoint
CREATE TRIGGER site_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON local_delivery_areas FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_change();
