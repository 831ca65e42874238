-- Written by hand: schema.prisma cannot declare a partial index (Prisma's "partialIndexes" preview is
-- off), and the schema engine leaves partial indexes and storage parameters out of its diff.
--
-- The outbox relay asks, every time it is woken, for the oldest unpublished rows
-- (`WHERE published_at IS NULL ORDER BY id LIMIT n`). Publishing sets published_at, so each row leaves
-- that set moments after it entered it, but through the (published_at, id) index PostgreSQL still
-- visited every row version published since the last vacuum: 24,300 heap pages for an empty answer,
-- 9.7 ms a call, measured with pg_stat_statements under `npm run bench`. This index holds only the
-- unpublished rows and is read in id order, so the relay reads the page it returns (and an index scan
-- marks the dead entries it meets, so later scans skip them).
CREATE INDEX IF NOT EXISTS "outbox_messages_unpublished_id_idx" ON "outbox_messages"("id") WHERE "published_at" IS NULL;

-- A queue table: rows are inserted, updated once and pruned; vacuum it after 1 % of changes, not 20 %,
-- so its indexes do not fill with dead entries between vacuums.
ALTER TABLE "outbox_messages" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
