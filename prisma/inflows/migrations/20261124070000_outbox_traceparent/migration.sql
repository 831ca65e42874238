-- The W3C traceparent of the transaction that wrote each event (README: "Tracing"), published as its
-- traceparent header so the trace goes on in the consumers; null when the writer was not traced.

-- AlterTable
ALTER TABLE "outbox_messages" ADD COLUMN     "traceparent" TEXT;
