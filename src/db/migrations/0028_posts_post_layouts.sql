-- Journal posts are written in the page editor (issue 27): a post's body is a layout of sections and blocks,
-- stored as the canonical text of core/layout.ts like a page's (page_layouts). `layout_draft` is what the
-- editor autosaves, `layout` what visitors see (null: the post's classic HTML body shows, as before), and
-- `layout_text` the published layout's words (server/editor/search-text.ts), weighed by site search like the body.
ALTER TABLE "items" ADD COLUMN "layout_draft" text;
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "layout" text;
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "layout_text" text DEFAULT '' NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tessera_items_search_doc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_doc :=
    setweight(to_tsvector('english', NEW.title), 'A') ||
    setweight(to_tsvector('english', array_to_string(array(select jsonb_array_elements_text(NEW.tags || NEW.categories)), ' ')), 'B') ||
    setweight(to_tsvector('english', NEW.excerpt), 'B') ||
    setweight(to_tsvector('english', translate(regexp_replace(NEW.body, '<[^>]*>', ' ', 'g'), U&'\27E6\27E7', '')), 'C') ||
    setweight(to_tsvector('english', translate(NEW.layout_text, U&'\27E6\27E7', '')), 'C');
  RETURN NEW;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS search_doc ON items;
--> statement-breakpoint
CREATE TRIGGER search_doc BEFORE INSERT OR UPDATE OF title, excerpt, body, tags, categories, layout_text ON items FOR EACH ROW EXECUTE FUNCTION tessera_items_search_doc();
