-- Claims with this operator the claimer: a partner's CPF key held at another institution, its portability asked for
-- (docs/api.md, "Claims"; ADR 0036). (The diff's DROP INDEX of outbox_messages_unpublished_id_idx, a partial index
-- the schema engine cannot see, is left out by hand.)

-- AlterTable
ALTER TABLE "pix_keys" ADD COLUMN     "claim_portability" BOOLEAN NOT NULL DEFAULT false;

-- Added by hand (Prisma cannot express CHECK constraints): the claimer's role, its completion owed DICT, its listing.
ALTER TABLE "claims" DROP CONSTRAINT "claims_role_known";
ALTER TABLE "claims" ADD CONSTRAINT "claims_role_known" CHECK ("role" IN ('donor', 'claimer'));
ALTER TABLE "claims" DROP CONSTRAINT "claims_dict_action_known";
ALTER TABLE "claims" ADD CONSTRAINT "claims_dict_action_known"
  CHECK ("dict_action" IN ('acknowledge', 'complete') AND "dict_action_reason" IS NULL
         OR "dict_action" IN ('confirm', 'cancel') AND "dict_action_reason" IS NOT NULL
         OR "dict_action" IS NULL);
INSERT INTO "dict_claim_polls" ("role") VALUES ('claimer');
