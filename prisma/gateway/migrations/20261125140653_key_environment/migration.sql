-- Keys carry their environment (docs/adr/0019-production-safe-by-default.md): a gateway authenticates
-- only the partner and operator keys of its own environment, so a database volume a sandbox once used
-- cannot open a production gateway with a sandbox key.

-- CreateEnum
CREATE TYPE "key_environment" AS ENUM ('sandbox', 'production');

-- AlterTable: added empty, filled, then required.
ALTER TABLE "api_keys" ADD COLUMN     "environment" "key_environment";
ALTER TABLE "operator_keys" ADD COLUMN     "environment" "key_environment";

-- A partner key says its environment in its text: pk_sandbox_... or pk_live_...
UPDATE "api_keys" SET "environment" = CASE WHEN "prefix" LIKE 'pk\_sandbox\_%' THEN 'sandbox'::"key_environment" ELSE 'production'::"key_environment" END;

-- An operator key does not (env_... from ADMIN_API_KEY, adm_... from the CLI), so the database tells: the
-- existing ones count as production only where the database shows production use and no sandbox use (live
-- partner keys, no sandbox ones). Anywhere a sandbox ran (or nothing ran yet) they are sandbox keys, which
-- a production gateway refuses: the known key of a sandbox env file never opens production. An operator so
-- locked out makes a new key with `npm run cli -- operator-key create --name WHO` (production by default).
UPDATE "operator_keys" SET "environment" = CASE
  WHEN EXISTS (SELECT 1 FROM "api_keys" WHERE "environment" = 'production')
   AND NOT EXISTS (SELECT 1 FROM "api_keys" WHERE "environment" = 'sandbox')
  THEN 'production'::"key_environment" ELSE 'sandbox'::"key_environment" END;

ALTER TABLE "api_keys" ALTER COLUMN "environment" SET NOT NULL;
ALTER TABLE "operator_keys" ALTER COLUMN "environment" SET NOT NULL;
