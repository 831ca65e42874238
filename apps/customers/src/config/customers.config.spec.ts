import { loadConfig } from '@partner/config';
import { LOCAL_SINKS, notifierSettings } from '../notifications/notifier-settings';
import { CustomersConfig } from './customers.config';

const PRODUCTION = {
  NODE_ENV: 'production',
  INTERNAL_SECRET: 'x'.repeat(32),
  SMTP_URL: 'smtps://mailer:s3cret@smtp.example.com.br:465',
  SMTP_FROM: 'Cadastro <nao-responda@example.com.br>',
  TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  TWILIO_AUTH_TOKEN: '0123456789abcdef0123456789abcdef',
  TWILIO_FROM: '+5511955554444',
};

describe('CustomersConfig: the owner notifier', () => {
  it('points development and test at the local sinks when nothing is set', () => {
    for (const NODE_ENV of ['development', 'test', undefined]) {
      const { smtp, twilio } = notifierSettings(loadConfig(CustomersConfig, { NODE_ENV }));
      expect(smtp).toEqual({ url: LOCAL_SINKS.smtpUrl, from: LOCAL_SINKS.smtpFrom, requireTls: false, timeoutMs: 15_000 });
      expect(twilio).toEqual({
        apiUrl: LOCAL_SINKS.twilioApiUrl,
        accountSid: LOCAL_SINKS.twilioAccountSid,
        authToken: LOCAL_SINKS.twilioAuthToken,
        sender: { from: LOCAL_SINKS.twilioFrom },
        timeoutMs: 15_000,
      });
    }
  });

  it('takes an SMTP server of its own in development (what npm start passes on)', () => {
    const { smtp } = notifierSettings(loadConfig(CustomersConfig, { NODE_ENV: 'development', SMTP_URL: 'smtp://127.0.0.1:2525' }));
    expect(smtp.url).toBe('smtp://127.0.0.1:2525');
  });

  it('refuses to start in production without every provider setting, naming each', () => {
    const load = () => loadConfig(CustomersConfig, { NODE_ENV: 'production', INTERNAL_SECRET: 'x'.repeat(32) });
    expect(load).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL .*required outside development and test/);
    for (const name of ['SMTP_URL', 'SMTP_FROM', 'TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM']) {
      const { [name as keyof typeof PRODUCTION]: _left, ...rest } = PRODUCTION;
      expect(() => loadConfig(CustomersConfig, rest)).toThrow(new RegExp(`- ${name}: `));
    }
  });

  it('runs production on its settings: Twilio itself, TLS required, a messaging service instead of a number', () => {
    const { smtp, twilio } = notifierSettings(loadConfig(CustomersConfig, PRODUCTION));
    expect(smtp).toMatchObject({ url: PRODUCTION.SMTP_URL, from: PRODUCTION.SMTP_FROM, requireTls: true });
    expect(twilio).toMatchObject({
      apiUrl: 'https://api.twilio.com',
      accountSid: PRODUCTION.TWILIO_ACCOUNT_SID,
      sender: { from: '+5511955554444' },
    });
    const { TWILIO_FROM: _from, ...withService } = PRODUCTION;
    const service = loadConfig(CustomersConfig, { ...withService, TWILIO_MESSAGING_SERVICE_SID: 'MG0123456789abcdef0123456789abcdef' });
    expect(notifierSettings(service).twilio.sender).toEqual({ messagingServiceSid: 'MG0123456789abcdef0123456789abcdef' });
    expect(notifierSettings(loadConfig(CustomersConfig, { ...PRODUCTION, SMTP_REQUIRE_TLS: 'false' })).smtp.requireTls).toBe(false);
  });

  it('refuses malformed values in any environment', () => {
    expect(() => loadConfig(CustomersConfig, { SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig(CustomersConfig, { TWILIO_ACCOUNT_SID: 'AC123' })).toThrow(/TWILIO_ACCOUNT_SID/);
    expect(() => loadConfig(CustomersConfig, { TWILIO_FROM: '11955554444' })).toThrow(/TWILIO_FROM/);
    expect(() => loadConfig(CustomersConfig, { TWILIO_API_URL: 'https://api.twilio.com/2010-04-01' })).toThrow(/TWILIO_API_URL/);
    expect(() => loadConfig(CustomersConfig, { NOTIFY_SEND_TIMEOUT_MS: '30000', NOTIFY_LEASE_MS: '20000' })).toThrow(
      /NOTIFY_LEASE_MS must be longer/,
    );
    for (const countries of ['br', 'BRA', 'BR,', 'BR PT', ''])
      expect(() => loadConfig(CustomersConfig, { NOTIFY_SMS_COUNTRIES: countries })).toThrow(/NOTIFY_SMS_COUNTRIES must be ISO 3166-1/);
    expect(() => loadConfig(CustomersConfig, { NOTIFY_SMS_PER_PARTNER_PER_DAY: '-1' })).toThrow(/NOTIFY_SMS_PER_PARTNER_PER_DAY/);
  });

  it('sends SMS only to Brazilian numbers, at most 1,000 per partner a day, unless the operator says otherwise', () => {
    expect(loadConfig(CustomersConfig, PRODUCTION)).toMatchObject({ NOTIFY_SMS_COUNTRIES: 'BR', NOTIFY_SMS_PER_PARTNER_PER_DAY: 1000 });
    expect(
      loadConfig(CustomersConfig, { ...PRODUCTION, NOTIFY_SMS_COUNTRIES: 'BR,PT', NOTIFY_SMS_PER_PARTNER_PER_DAY: '0' }),
    ).toMatchObject({
      NOTIFY_SMS_COUNTRIES: 'BR,PT',
      NOTIFY_SMS_PER_PARTNER_PER_DAY: 0,
    });
  });
});
