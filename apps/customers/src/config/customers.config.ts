import {
  IsIn,
  IsString,
  Matches,
  Validate,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { IntInRange, PollIntervalMs, ServiceConfig } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

/** NODE_ENVs where the notifier's providers default to the local sinks `npm start` and `npm test` start (unset counts as development, as in Node). */
export const SINK_ENVIRONMENTS = ['', 'development', 'test'];

/** Outside development and test (NODE_ENV=production in the images): the providers must be named, never defaulted. */
const inProduction = (c: CustomersConfig) => !SINK_ENVIRONMENTS.includes(c.NODE_ENV);

/** What a required provider setting says when it is missing in production. */
const required = (name: string, what: string) =>
  `${name} must be ${what}; it is required outside development and test (docs/operations/notifications.md, "Settings")`;

@ValidatorConstraint({ name: 'longerThanSendTimeout' })
class LongerThanSendTimeout implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return typeof value === 'number' && value > (args.object as CustomersConfig).NOTIFY_SEND_TIMEOUT_MS;
  }
  defaultMessage(): string {
    return 'NOTIFY_LEASE_MS must be longer than NOTIFY_SEND_TIMEOUT_MS';
  }
}

/**
 * The customers service's settings. The owner notifier's (docs/operations/notifications.md): an SMTP
 * server for e-mails, Twilio's Messages API for SMS. In development and test every provider setting left
 * empty points at the local sinks the stack starts (notifier-settings.ts); in production each is required,
 * and the service refuses to start without it.
 */
export class CustomersConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE.customers.healthPort;

  /**
   * The SMTP server owners' e-mails go through: smtp://[user:password@]host[:port] (STARTTLS when the
   * server offers it; required with SMTP_REQUIRE_TLS) or smtps://... (TLS from the start, port 465).
   * Development and test: smtp://127.0.0.1:1025, the sink `npm start` starts.
   */
  @ValidateIf((c: CustomersConfig) => c.SMTP_URL !== '' || inProduction(c))
  @Matches(/^smtps?:\/\/[^\s/]+\/?(\?\S*)?$/, {
    message: required('SMTP_URL', 'an smtp:// or smtps:// URL (smtp://user:password@host:587, smtps://user:password@host:465)'),
  })
  SMTP_URL: string = '';

  /** The From of owners' e-mails, an address the SMTP server may send from: `Name <address>` or the address alone. */
  @ValidateIf((c: CustomersConfig) => c.SMTP_FROM !== '' || inProduction(c))
  @Matches(/^([^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, {
    message: required('SMTP_FROM', 'the sender, "Name <address>" or the address'),
  })
  SMTP_FROM: string = '';

  /**
   * true: refuse to send over smtp:// unless the server upgrades the connection with STARTTLS. Empty: true in
   * production, false in development and test (the local sink speaks plain SMTP).
   */
  @IsIn(['', 'true', 'false'], { message: 'SMTP_REQUIRE_TLS must be true, false or empty' })
  SMTP_REQUIRE_TLS: '' | 'true' | 'false' = '';

  /** Twilio's REST API: https://api.twilio.com in production; development and test: http://127.0.0.1:8025, the local SMS sink. */
  @ValidateIf((c: CustomersConfig) => c.TWILIO_API_URL !== '')
  @Matches(/^https?:\/\/[^\s/]+$/, { message: 'TWILIO_API_URL must be an http(s) origin, without a path (e.g. https://api.twilio.com)' })
  TWILIO_API_URL: string = '';

  /** The Twilio account SMS are sent from (AC + 32 hex digits); with TWILIO_AUTH_TOKEN, the Basic auth of every request. */
  @ValidateIf((c: CustomersConfig) => c.TWILIO_ACCOUNT_SID !== '' || inProduction(c))
  @Matches(/^AC[0-9a-fA-F]{32}$/, { message: required('TWILIO_ACCOUNT_SID', 'the Twilio account SID, AC followed by 32 hex digits') })
  TWILIO_ACCOUNT_SID: string = '';

  /** The account's auth token (or an API key's secret with its account SID). Never logged. */
  @ValidateIf((c: CustomersConfig) => c.TWILIO_AUTH_TOKEN !== '' || inProduction(c))
  @IsString()
  @Matches(/^\S{8,}$/, { message: required('TWILIO_AUTH_TOKEN', "the account's auth token (8 or more characters, no spaces)") })
  TWILIO_AUTH_TOKEN: string = '';

  /** The sender: a number of the account in E.164. Production needs this or TWILIO_MESSAGING_SERVICE_SID (which wins when both are set). */
  @ValidateIf((c: CustomersConfig) => c.TWILIO_FROM !== '' || (inProduction(c) && c.TWILIO_MESSAGING_SERVICE_SID === ''))
  @Matches(/^\+[1-9]\d{6,14}$/, {
    message: required(
      'TWILIO_FROM',
      'a sender number of the account in E.164 (+5511...), unless TWILIO_MESSAGING_SERVICE_SID (MG...) is set',
    ),
  })
  TWILIO_FROM: string = '';

  /** A Messaging Service (MG + 32 hex digits) that picks the sender itself; used instead of TWILIO_FROM when set. */
  @ValidateIf((c: CustomersConfig) => c.TWILIO_MESSAGING_SERVICE_SID !== '')
  @Matches(/^MG[0-9a-fA-F]{32}$/, { message: 'TWILIO_MESSAGING_SERVICE_SID must be MG followed by 32 hex digits' })
  TWILIO_MESSAGING_SERVICE_SID: string = '';

  /** How often the notifier looks for notifications due (a registration's wait for its first attempt is at most this). */
  @PollIntervalMs()
  NOTIFY_POLL_MS: number = 1_000;

  /** How many due notifications one run claims and sends at once. */
  @IntInRange(1, 100)
  NOTIFY_BATCH: number = 10;

  /** Attempts before a notification is `failed` for good (the first one included). */
  @IntInRange(1, 50)
  NOTIFY_MAX_ATTEMPTS: number = 8;

  /** The wait after the first failed attempt; it doubles after each further one, up to NOTIFY_RETRY_MAX_MS. */
  @IntInRange(100, 86_400_000)
  NOTIFY_RETRY_BASE_MS: number = 60_000;

  @IntInRange(100, 86_400_000)
  NOTIFY_RETRY_MAX_MS: number = 3_600_000;

  /** How long one send may take (connecting, the SMTP dialogue, the HTTP request) before it counts as failed. */
  @IntInRange(1_000, 300_000)
  NOTIFY_SEND_TIMEOUT_MS: number = 15_000;

  /**
   * How long a claimed notification is reserved for the attempt in progress: an instance that dies in the
   * middle leaves it to another after this. Longer than NOTIFY_SEND_TIMEOUT_MS.
   */
  @IntInRange(2_000, 3_600_000)
  @Validate(LongerThanSendTimeout)
  NOTIFY_LEASE_MS: number = 120_000;

  /**
   * The countries (ISO 3166-1 alpha-2, comma-separated) whose numbers owners are sent SMS at. A registration
   * asking SMS for an owner elsewhere is refused (422 sms_country_not_allowed): an SMS abroad costs many times
   * a Brazilian one and is how SMS toll fraud bills the sender's account.
   */
  @Matches(/^[A-Z]{2}(,[A-Z]{2})*$/, {
    message: 'NOTIFY_SMS_COUNTRIES must be ISO 3166-1 alpha-2 codes separated by commas (BR, or BR,PT)',
  })
  NOTIFY_SMS_COUNTRIES: string = 'BR';

  /**
   * SMS one partner's registrations may ask for in any 24 hours (0: none). A registration that would pass it is
   * refused (429 sms_quota_exceeded, Retry-After): a leaked partner key cannot run up the Twilio bill.
   */
  @IntInRange(0, 10_000_000)
  NOTIFY_SMS_PER_PARTNER_PER_DAY: number = 1_000;
}
