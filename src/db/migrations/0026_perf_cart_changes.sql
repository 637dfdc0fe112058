-- Cart changes (issue 28): a statement trigger on carts notifies 'tessera_cart_changes' when the session has
-- asked for it (tessera.cart_notify = 'on'). PGlite sets it on its one session, so every write to a cart, by any
-- area or plain SQL, tells the process before the committing statement returns, and the page pipeline can keep
-- a cart it read until then (commerce/cart-service.ts findShared). PostgreSQL sessions never set it: there the
-- trigger only reads the setting, and pages read the cart each time.
CREATE OR REPLACE FUNCTION tessera_note_cart_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tessera.cart_notify', true) = 'on' THEN
    PERFORM pg_notify('tessera_cart_changes', '');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER carts_note_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON carts FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_cart_change();
