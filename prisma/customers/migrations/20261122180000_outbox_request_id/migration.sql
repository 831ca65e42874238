-- The request that caused each event (README: "Request ids"), published as its request_id header.

-- AlterTable
ALTER TABLE "outbox_messages" ADD COLUMN     "request_id" TEXT;
