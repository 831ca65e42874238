-- CreateTable
CREATE TABLE "refused_commands" (
    "command_id" TEXT NOT NULL,
    "partner_id" UUID NOT NULL,
    "idempotency_key" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "refused_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refused_commands_pkey" PRIMARY KEY ("command_id")
);

-- CreateIndex
CREATE INDEX "refused_commands_refused_at_idx" ON "refused_commands"("refused_at");
