-- AlterTable
ALTER TABLE "refused_commands" ALTER COLUMN "idempotency_key" SET DATA TYPE TEXT;
