-- Site search (server/search/search.ts) reads a stored, GIN-indexed tsvector instead of parsing every
-- published item and page on every query. Row triggers keep it current for every writer (owner calls,
-- the editor, imports, seeds, direct SQL): the document is computed from the row itself, with the same
-- weights the search used to compute at query time (title A; tags, categories and excerpt B; body C;
-- HTML tags removed and the search's private highlight markers U+27E6/U+27E7 dropped).
ALTER TABLE "items" ADD COLUMN "search_doc" tsvector;
--> statement-breakpoint
ALTER TABLE "collections" ADD COLUMN "search_doc" tsvector;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tessera_items_search_doc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_doc :=
    setweight(to_tsvector('english', NEW.title), 'A') ||
    setweight(to_tsvector('english', array_to_string(array(select jsonb_array_elements_text(NEW.tags || NEW.categories)), ' ')), 'B') ||
    setweight(to_tsvector('english', NEW.excerpt), 'B') ||
    setweight(to_tsvector('english', translate(regexp_replace(NEW.body, '<[^>]*>', ' ', 'g'), U&'\27E6\27E7', '')), 'C');
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tessera_collections_search_doc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_doc :=
    setweight(to_tsvector('english', NEW.title), 'A') ||
    setweight(to_tsvector('english', NEW.description), 'B') ||
    setweight(to_tsvector('english', translate(regexp_replace(coalesce(NEW.settings->>'body', ''), '<[^>]*>', ' ', 'g'), U&'\27E6\27E7', '')), 'C');
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER search_doc BEFORE INSERT OR UPDATE OF title, excerpt, body, tags, categories ON items FOR EACH ROW EXECUTE FUNCTION tessera_items_search_doc();
--> statement-breakpoint
CREATE TRIGGER search_doc BEFORE INSERT OR UPDATE OF title, description, settings ON collections FOR EACH ROW EXECUTE FUNCTION tessera_collections_search_doc();
--> statement-breakpoint
-- Rows written before this migration: the triggers compute their documents.
UPDATE items SET title = title;
--> statement-breakpoint
UPDATE collections SET title = title;
--> statement-breakpoint
CREATE INDEX "items_search_doc_idx" ON "items" USING gin ("search_doc");
--> statement-breakpoint
CREATE INDEX "collections_search_doc_idx" ON "collections" USING gin ("search_doc");
