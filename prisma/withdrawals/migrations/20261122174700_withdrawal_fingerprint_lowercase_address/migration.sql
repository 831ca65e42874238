-- Written by hand (a data migration; the schema does not change).
-- Idempotency fingerprints now read the destination address in lower case: an EVM address's letter case is
-- only its EIP-55 checksum, so a retry spelling it in another case is the same request. Rows written from a
-- mixed- or upper-case address get the fingerprint they would have had, so their keys still replay.
-- The text hashed is exactly fingerprintOf's (apps/withdrawals/src/withdrawals/create-withdrawal.use-case.ts):
-- the JSON array [document, address, usdtmicros, fee_choice, network], SHA-256, hex.
UPDATE "withdrawals"
SET "fingerprint" = encode(sha256(convert_to(
      '[' || to_json("document"::text)::text || ',' || to_json(lower("address"))::text || ',' || "amount_micros"::text || ','
          || to_json("fee_choice")::text || ',' || to_json("network")::text || ']',
      'UTF8')), 'hex')
WHERE "address" <> lower("address");
