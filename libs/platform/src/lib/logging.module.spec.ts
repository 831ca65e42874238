import pino from 'pino';
import { RequestContexts } from '@partner/runtime';
import { logOptions } from './logging.module';

/** A logger with the apps' options, writing its JSON lines into an array. */
function capture(): { log: pino.Logger; lines: () => Array<Record<string, unknown>> } {
  const written: string[] = [];
  const log = pino({ ...logOptions('spec', 'info'), transport: undefined }, { write: (line: string) => void written.push(line) });
  return { log, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('log lines (logOptions)', () => {
  it('carry the request id and the partner of the request they were written in', async () => {
    const { log, lines } = capture();
    const context: { requestId: string; partnerId?: string } = { requestId: 'abc-123' };
    await RequestContexts.run(context, async () => {
      log.warn('before authentication');
      context.partnerId = 'partner-1';
      await new Promise((resolve) => setImmediate(resolve));
      log.warn({ topic: 'withdrawals.command.create.v1' }, 'after');
    });
    log.warn('no request');

    expect(lines().map(({ request_id, partner_id, msg }) => ({ request_id, partner_id, msg }))).toEqual([
      { request_id: 'abc-123', partner_id: null, msg: 'before authentication' },
      { request_id: 'abc-123', partner_id: 'partner-1', msg: 'after' },
      { request_id: undefined, partner_id: undefined, msg: 'no request' },
    ]);
    expect(lines()[1].topic).toBe('withdrawals.command.create.v1');
  });

  it('never show a CPF or CNPJ, in the message, a field or an error', () => {
    const { log, lines } = capture();
    log.warn({ url: '/partner/v1/pix-key/52998224725' }, 'refused %s', '11222333000181');
    log.error(new Error('user 52998224725 not found'));

    const text = JSON.stringify(lines());
    expect(text).not.toContain('52998224725');
    expect(text).not.toContain('11222333000181');
    expect(lines()[0]).toMatchObject({ url: '/partner/v1/pix-key/[masked]', msg: 'refused [masked]' });
  });
});
