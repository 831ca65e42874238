/**
 * Which refusals end a notification at once (`failed` after that attempt) instead of being retried: those
 * about this recipient or this message, which no later attempt can change. A refusal about our own settings
 * (credentials, sender, TLS) or the provider's state (overload, outage, a timeout) is retried with the usual
 * backoff, so fixing it sends what waits without anyone re-queueing rows. Anything not named here retries.
 */

/** What nodemailer's error says of an SMTP refusal: the server's reply code and the command it answered. */
export interface SmtpRefusal {
  responseCode?: number;
  command?: string;
}

/**
 * SMTP, by RFC 5321 §4.2.1: a 5yz reply is a permanent negative completion (the client should not repeat
 * the request), a 4yz one transient. Permanent here: a 5yz reply to RCPT TO (the recipient: 550 mailbox
 * unavailable, 553 mailbox name not allowed) or to DATA (this message). A 5yz to the greeting, AUTH or MAIL
 * FROM is about our connection, credentials or sender (535, 530): settings, retried. No reply (a refused or
 * dropped connection, a timeout) is transient.
 */
export function smtpFailureIsPermanent(refusal: SmtpRefusal): boolean {
  const code = refusal.responseCode ?? 0;
  return code >= 500 && code <= 599 && (refusal.command === 'RCPT TO' || refusal.command === 'DATA');
}

/**
 * Twilio's error codes that mean this 'To' can never get this SMS, from Twilio's error dictionary
 * (https://www.twilio.com/docs/api/errors/<code>): 21211 invalid 'To' phone number, 21268 a premium-rate
 * or information service number, 21610 the recipient replied STOP (unsubscribed until they send START),
 * 21614 'To' is not a mobile number (a landline).
 */
const PERMANENT_TWILIO_CODES: ReadonlySet<number> = new Set([21211, 21268, 21610, 21614]);

/**
 * Twilio, by the answer to CreateMessage: permanent only for a 4xx naming one of the codes above. 429 and
 * 20429 (too many requests: "safe to retry after backing off", per the dictionary), 5xx, account and sender
 * errors (20003 authentication, 21606 and 21408 sender or region permissions: settings), codes not named
 * here and 30xxx (delivery-side codes, reported by status callbacks, not in this answer) are retried.
 */
export function twilioFailureIsPermanent(status: number, code: number | undefined): boolean {
  return status >= 400 && status < 500 && status !== 429 && code !== undefined && PERMANENT_TWILIO_CODES.has(code);
}
