import { ClientKafka } from '@nestjs/microservices';
import { Observable, of, throwError } from 'rxjs';
import { Topics } from '@partner/contracts';
import { MessageBus, ServiceUnavailableError } from './message-bus';

/** A ClientKafka whose `send` answers with the given observable: no broker needed for the mapping. */
const busAnswering = (reply: () => Observable<unknown>, requestTimeoutMs = 1000) =>
  new MessageBus({ send: reply } as unknown as ClientKafka, { requests: [], requestTimeoutMs });

const ping = { sent_at: new Date().toISOString() };

describe('MessageBus.request error mapping', () => {
  it('returns the reply of the remote handler', async () => {
    const reply = { ok: true, data: { service: 'withdrawals', database: true } };
    await expect(busAnswering(() => of(reply)).request(Topics.WithdrawalsPing, ping)).resolves.toEqual(reply);
  });

  it('a remote handler that failed (error object, e.g. its database went away) is service unavailable, not a 500', async () => {
    const failed = busAnswering(() => throwError(() => ({ status: 'error', message: 'Internal server error' })));
    await expect(failed.request(Topics.WithdrawalsPing, ping)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('a transport error and a timeout are service unavailable too', async () => {
    await expect(busAnswering(() => throwError(() => new Error('broker down'))).request(Topics.WithdrawalsPing, ping)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    await expect(busAnswering(() => new Observable(() => undefined), 20).request(Topics.WithdrawalsPing, ping)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });
});
