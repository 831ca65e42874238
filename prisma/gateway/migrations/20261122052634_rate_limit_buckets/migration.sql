-- CreateTable
CREATE TABLE "rate_limit_buckets" (
    "partner_id" UUID NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "rate_limit_buckets_pkey" PRIMARY KEY ("partner_id")
);

-- Takes one token from the partner's bucket if there is one (hand-written: Prisma does not model
-- functions). The row lock makes concurrent takes of one partner, from any gateway instance, queue;
-- the time is read after the lock is held, on the database's clock, the same for every instance.
CREATE FUNCTION "take_rate_limit_token"(p_partner_id UUID, p_burst DOUBLE PRECISION, p_per_second DOUBLE PRECISION)
RETURNS TABLE ("allowed" BOOLEAN, "tokens" DOUBLE PRECISION)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  held DOUBLE PRECISION;
  since TIMESTAMPTZ;
  now_ TIMESTAMPTZ;
  refilled DOUBLE PRECISION;
BEGIN
  INSERT INTO "rate_limit_buckets" ("partner_id", "tokens", "updated_at") VALUES (p_partner_id, p_burst, clock_timestamp())
  ON CONFLICT ("partner_id") DO NOTHING;
  SELECT b."tokens", b."updated_at" INTO held, since FROM "rate_limit_buckets" b WHERE b."partner_id" = p_partner_id FOR UPDATE;
  now_ := GREATEST(since, clock_timestamp());
  refilled := LEAST(p_burst, held + EXTRACT(EPOCH FROM now_ - since) * p_per_second);
  allowed := refilled >= 1;
  tokens := CASE WHEN allowed THEN refilled - 1 ELSE refilled END;
  UPDATE "rate_limit_buckets" SET "tokens" = take_rate_limit_token.tokens, "updated_at" = now_ WHERE "partner_id" = p_partner_id;
  RETURN NEXT;
END;
$$;
