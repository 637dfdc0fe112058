-- Likes of content items (the like button of the demo theme's journal posts): one row per item and liker,
-- the liker being the random id of the visitor's like cookie, so a visitor counts once per item.
CREATE TABLE "item_likes" (
	"item_id" text NOT NULL REFERENCES "items"("id") ON DELETE CASCADE,
	"liker" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL DEFAULT now(),
	PRIMARY KEY ("item_id", "liker")
);
-- A like does not move the content version: the count shows on its post alone, and the like call drops
-- that post from the page cache (server/content/likes.ts), so likes cannot empty every cached page.
