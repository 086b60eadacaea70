-- Thread messages name their author as reviews, comments and plan reviews do: `user`, or the
-- writing pane's bare id (they were written `pane:<id>`).
UPDATE "Message" SET "author" = substr("author", 6) WHERE "author" LIKE 'pane:%';
