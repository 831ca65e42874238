import { CustomersConfig, SINK_ENVIRONMENTS } from '../config/customers.config';

/**
 * The local sinks `npm start` and `npm test` start (scripts/notify): where the notifier sends in development
 * and test when a provider setting is left empty. The same values as tools/notification-sinks's defaults.
 */
export const LOCAL_SINKS = {
  smtpUrl: 'smtp://127.0.0.1:1025',
  smtpFrom: 'Cadastro de empresas <nao-responda@partner-service.localhost>',
  twilioApiUrl: 'http://127.0.0.1:8025',
  twilioAccountSid: 'AC00000000000000000000000000000000',
  twilioAuthToken: 'local-sms-sink-token',
  // Twilio's own magic test number, valid as a sender with test credentials.
  twilioFrom: '+15005550006',
} as const;

/** Twilio's REST API, where production sends SMS unless TWILIO_API_URL names another origin (a regional edge). */
export const TWILIO_API_URL = 'https://api.twilio.com';

export interface SmtpSettings {
  url: string;
  from: string;
  requireTls: boolean;
  timeoutMs: number;
}

export interface TwilioSettings {
  apiUrl: string;
  accountSid: string;
  authToken: string;
  /** The sender: a number of the account, or a Messaging Service (which wins). */
  sender: { from: string } | { messagingServiceSid: string };
  timeoutMs: number;
}

/** The providers' settings as used: what the environment gives, and the local sinks for what it leaves empty outside production. */
export function notifierSettings(c: CustomersConfig): { smtp: SmtpSettings; twilio: TwilioSettings } {
  const local = SINK_ENVIRONMENTS.includes(c.NODE_ENV);
  // Outside development and test CustomersConfig refused to load without each of these: nothing falls back to a sink there.
  const or = (value: string, sink: string) => value || (local ? sink : value);
  return {
    smtp: {
      url: or(c.SMTP_URL, LOCAL_SINKS.smtpUrl),
      from: or(c.SMTP_FROM, LOCAL_SINKS.smtpFrom),
      requireTls: c.SMTP_REQUIRE_TLS === '' ? !local : c.SMTP_REQUIRE_TLS === 'true',
      timeoutMs: c.NOTIFY_SEND_TIMEOUT_MS,
    },
    twilio: {
      apiUrl: c.TWILIO_API_URL || (local ? LOCAL_SINKS.twilioApiUrl : TWILIO_API_URL),
      accountSid: or(c.TWILIO_ACCOUNT_SID, LOCAL_SINKS.twilioAccountSid),
      authToken: or(c.TWILIO_AUTH_TOKEN, LOCAL_SINKS.twilioAuthToken),
      sender: c.TWILIO_MESSAGING_SERVICE_SID
        ? { messagingServiceSid: c.TWILIO_MESSAGING_SERVICE_SID }
        : { from: or(c.TWILIO_FROM, LOCAL_SINKS.twilioFrom) },
      timeoutMs: c.NOTIFY_SEND_TIMEOUT_MS,
    },
  };
}
