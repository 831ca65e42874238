import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { PartnerId } from '../../tenancy/partner-id';

/** The channels an owner is notified on (a registration's config.auto_send_owner_sms / auto_send_owner_email). */
export const OWNER_NOTIFICATION_CHANNELS = ['sms', 'email'] as const;
export type OwnerNotificationChannel = (typeof OWNER_NOTIFICATION_CHANNELS)[number];

/**
 * pending: waiting for its first attempt or its next one; sent: the provider accepted it (the SMTP server
 * queued the e-mail, Twilio created the message); failed: every attempt failed (NOTIFY_MAX_ATTEMPTS), final.
 */
export const OWNER_NOTIFICATION_STATUSES = ['pending', 'sent', 'failed'] as const;
export type OwnerNotificationStatus = (typeof OWNER_NOTIFICATION_STATUSES)[number];

/** The path of GET /admin/v1/partners/{partner_id}/business-customers/{id}/notifications. */
export class OwnerNotificationsParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'partner_id must be a UUID' })
  partner_id!: string;

  @ApiProperty({ format: 'uuid', description: "The business customer's id (the one POST /partner/v1/customers/business answered)" })
  @IsUUID('all', { message: 'id must be a UUID' })
  id!: string;
}

/** customers.query.list-owner-notifications.v1: the owner notifications of one of a partner's business customers. */
export class ListOwnerNotificationsQuery {
  @IsUUID()
  partner_id!: PartnerId;

  @IsUUID('all', { message: 'id must be a UUID' })
  id!: string;
}

/** One message to one owner on one channel, as the operator API shows it. */
export class OwnerNotificationView {
  @ApiProperty({ type: 'integer', example: 1042 })
  id!: number;

  @ApiProperty({ type: 'integer', description: "The owner's position in the registration's owners, from 0", example: 0 })
  owner_index!: number;

  @ApiProperty({ enum: OWNER_NOTIFICATION_CHANNELS, description: "sms to the owner's phone, email to the owner's e-mail" })
  channel!: OwnerNotificationChannel;

  @ApiProperty({ description: "Where it goes: the owner's phone (E.164) or e-mail, as registered", example: '+5511987654321' })
  destination!: string;

  @ApiProperty({
    enum: OWNER_NOTIFICATION_STATUSES,
    description:
      'pending: waiting for an attempt; sent: the provider accepted it (SMTP server, SMS provider); failed: every attempt failed (final)',
  })
  status!: OwnerNotificationStatus;

  @ApiProperty({ type: 'integer', description: 'Attempts made so far (an attempt in progress counts)', example: 1 })
  attempts!: number;

  @ApiProperty({ type: 'integer', description: 'Unix seconds: when the registration asked for it', example: 1795315285 })
  created_at!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix seconds: when the next attempt is due (pending only; null once sent or failed)',
    example: null,
  })
  next_attempt_at!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix seconds: when the provider accepted it; null unless sent',
    example: 1795315286,
  })
  sent_at!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix seconds: when the last attempt failed for good; null unless failed',
    example: null,
  })
  failed_at!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the last failed attempt failed (identifiers masked); kept once a later attempt succeeds; null if none failed',
    example: null,
  })
  last_error!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The provider's id of the message: the e-mail's Message-ID, the SMS provider's message SID; null unless sent",
    example: 'SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  })
  provider_message_id!: string | null;
}

export class ListOwnerNotificationsResult {
  @ApiProperty({ type: [OwnerNotificationView], description: 'By owner, then channel (sms before email)' })
  notifications!: OwnerNotificationView[];
}
