-- Inflows the Pix provider notifies (POST /provider/v1/pix/inflows) move only by its notifications: no
-- simulated outcome, and the sandbox's settlement leaves rows without one alone.
ALTER TABLE "pix_inflows" ALTER COLUMN "outcome" DROP NOT NULL;
