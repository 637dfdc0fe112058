-- Site-user session changes (issue 28): statement triggers on site_user_sessions, site_users and
-- site_user_profiles notify 'tessera_site_user_changes' when the session has asked for it
-- (tessera.site_user_notify = 'on'). PGlite sets it on its one session, so every write to those tables, by
-- any area or plain SQL, tells the process before the committing statement returns, and a signed-in
-- visitor's session can be kept in memory until then (platform/site-users.ts fromSession). PostgreSQL
-- sessions never set it: there the trigger only reads the setting, and each request reads its session.
CREATE OR REPLACE FUNCTION tessera_note_site_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tessera.site_user_notify', true) = 'on' THEN
    PERFORM pg_notify('tessera_site_user_changes', '');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER site_user_sessions_note_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON site_user_sessions FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_user_change();
--> statement-breakpoint
CREATE TRIGGER site_users_note_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON site_users FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_user_change();
--> statement-breakpoint
CREATE TRIGGER site_user_profiles_note_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON site_user_profiles FOR EACH STATEMENT EXECUTE FUNCTION tessera_note_site_user_change();
