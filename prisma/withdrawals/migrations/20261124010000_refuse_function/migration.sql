-- Added by hand (Prisma has no functions): lets a one-statement command abort itself with a reason, so
-- nothing of it commits. The withdrawal's statement claims the idempotency key first (inserting the
-- withdrawal, as a concurrent duplicate must wait on the key before anything else) and only then finds
-- whether the balance covers it; a refusal must undo that insert, and one statement cannot roll back
-- part of itself. The reason is the message; the hint marks it as a refusal, not a failure.
CREATE FUNCTION refuse(reason TEXT) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = reason, HINT = 'refused';
END
$$;
