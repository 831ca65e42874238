-- EVP keys (random keys DICT generates): a key's type, and its value unknown until DICT answers the
-- registration (docs/api.md, "Pix keys"). Every existing key is a CPF key whose value is its document.
-- (The schema engine's diff also proposed dropping outbox_messages_unpublished_id_idx, a partial index it
-- cannot see: left out by hand, as in every migration since it exists.)

-- AlterTable
ALTER TABLE "pix_keys" ADD COLUMN     "key_type" TEXT NOT NULL DEFAULT 'cpf',
ALTER COLUMN "key" DROP NOT NULL;

-- Added by hand (Prisma cannot express CHECK constraints): a CPF key is its document, always known; an EVP key
-- is known once registered (DICT generated it), and from then on whatever its state.
ALTER TABLE "pix_keys" DROP CONSTRAINT "pix_keys_key_is_document";
ALTER TABLE "pix_keys" ADD CONSTRAINT "pix_keys_key_type_known" CHECK ("key_type" IN ('cpf', 'evp'));
ALTER TABLE "pix_keys" ADD CONSTRAINT "pix_keys_key_is_document"
  CHECK (("key_type" = 'cpf' AND "key" = "document") OR ("key_type" = 'evp' AND ("key" IS NOT NULL OR "state" IN ('pending', 'failed'))));
