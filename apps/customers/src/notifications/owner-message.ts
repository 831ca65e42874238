import { OwnerNotificationChannel } from '@partner/contracts';

/** An e-mail to one owner, as the templates write it (templates.ts), and the key of its notification. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /**
   * The same on every attempt of one notification (`owner-notification-<id>`): the adapter makes the
   * e-mail's Message-ID of it, so each copy a retry sends carries the same one and a receiver can drop repeats.
   */
  key: string;
}

/** An SMS to one owner's phone (E.164). */
export interface SmsMessage {
  to: string;
  body: string;
}

/** What a provider answered when it accepted a message: its id of it (a Message-ID, a message SID). */
export interface Accepted {
  providerMessageId: string;
}

/** The notifier's ports: one sender per channel. An adapter throws a SendError when the provider did not accept the message. */
export interface EmailSender {
  send(message: EmailMessage): Promise<Accepted>;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<Accepted>;
}

export const EMAIL_SENDER = Symbol('EmailSender');
export const SMS_SENDER = Symbol('SmsSender');

/**
 * A provider did not accept a message (refused it, failed, did not answer in time). Its message is what the
 * operator sees as `last_error` and what the log says: written by the adapter from the provider's codes, with
 * every identifier masked (maskIdentifiers) and never the recipient. `permanent`: the provider refused this
 * recipient or message for good (permanent-failure.ts), so no further attempt is made.
 */
export class SendError extends Error {
  constructor(
    readonly channel: OwnerNotificationChannel,
    message: string,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'SendError';
  }
}
