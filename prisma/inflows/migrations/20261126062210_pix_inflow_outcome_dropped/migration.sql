-- The sandbox's settlement reads each payment's outcome from spi_payments (its own log, where every sandbox
-- inflow's payment has been since the first migration) and moves inflows through the Pix provider's
-- ingestion: the inflow no longer carries it. Its CHECK constraint goes with it.
-- AlterTable
ALTER TABLE "pix_inflows" DROP COLUMN "outcome";
