-- Site search reads editor pages too (issue 27): a page's published layout leaves its words in
-- collections.settings->>'layoutText' (server/editor/search-text.ts, written in the publishing transaction),
-- and the collections' search document weighs them like the classic page body.
CREATE OR REPLACE FUNCTION tessera_collections_search_doc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_doc :=
    setweight(to_tsvector('english', NEW.title), 'A') ||
    setweight(to_tsvector('english', NEW.description), 'B') ||
    setweight(to_tsvector('english', translate(regexp_replace(coalesce(NEW.settings->>'body', ''), '<[^>]*>', ' ', 'g'), U&'\27E6\27E7', '')), 'C') ||
    setweight(to_tsvector('english', translate(coalesce(NEW.settings->>'layoutText', ''), U&'\27E6\27E7', '')), 'C');
  RETURN NEW;
END
$$;
