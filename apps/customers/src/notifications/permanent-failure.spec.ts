import { smtpFailureIsPermanent, twilioFailureIsPermanent } from './permanent-failure';

describe('smtpFailureIsPermanent (RFC 5321 §4.2.1: 5yz permanent, 4yz transient)', () => {
  it.each([
    [550, 'RCPT TO', true], // mailbox unavailable
    [553, 'RCPT TO', true], // mailbox name not allowed
    [554, 'DATA', true], // transaction failed: this message
    [550, 'DATA', true],
    [450, 'RCPT TO', false], // mailbox busy
    [451, 'DATA', false], // local error: try again later
    [421, 'CONN', false], // service not available
    [535, 'AUTH PLAIN', false], // our credentials: settings
    [530, 'MAIL FROM', false], // authentication required: settings
    [553, 'MAIL FROM', false], // our sender refused: settings
    [554, 'CONN', false], // the greeting: the server refuses us, not the recipient
  ])('%i at %s: permanent %s', (responseCode, command, permanent) => {
    expect(smtpFailureIsPermanent({ responseCode, command })).toBe(permanent);
  });

  it('keeps retrying without a reply: a refused or dropped connection, a timeout', () => {
    expect(smtpFailureIsPermanent({ command: 'CONN' })).toBe(false);
    expect(smtpFailureIsPermanent({})).toBe(false);
  });
});

describe("twilioFailureIsPermanent (Twilio's error dictionary)", () => {
  it.each([
    [400, 21211, true], // invalid 'To' phone number
    [400, 21610, true], // the recipient replied STOP
    [400, 21614, true], // not a mobile number
    [400, 21268, true], // premium-rate number
    [429, 20429, false], // too many requests: retry after backing off
    [503, 20500, false], // Twilio's outage
    [500, 21211, false], // a 5xx is transient whatever its code
    [401, 20003, false], // our credentials: settings
    [400, 21606, false], // our sender: settings
    [400, 21408, false], // the region not enabled on the account: settings
    [400, 30003, false], // a delivery-side code: not final
    [400, 21999, false], // a code not named: retried
  ])('HTTP %i code %i: permanent %s', (status, code, permanent) => {
    expect(twilioFailureIsPermanent(status, code)).toBe(permanent);
  });

  it('keeps retrying an answer without a code', () => {
    expect(twilioFailureIsPermanent(400, undefined)).toBe(false);
    expect(twilioFailureIsPermanent(502, undefined)).toBe(false);
  });
});
