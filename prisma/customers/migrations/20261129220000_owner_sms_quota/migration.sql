-- A partner's SMS of the last 24 hours, counted by every registration that asks for SMS against the partner's
-- quota (NOTIFY_SMS_PER_PARTNER_PER_DAY). Written by hand: schema.prisma cannot declare a partial index.
CREATE INDEX "owner_notifications_sms_idx" ON "owner_notifications"("partner_id", "created_at") WHERE "channel" = 'sms';
