import { IngestPixInflowCommand, PixInNotifiedStatus, SIMULATED_PIX_IN_OUTCOMES, SimulatedPixInOutcome } from '@partner/contracts';
import { validateContract } from '@partner/validation';
import { transitionOf } from '../pix-inflows/pix-in-transitions';
import { announcedPayment, sandboxPaymentOf, SPEC_ISPB } from './provider-ingestion.spec-support';
import { nextStatus, notificationOf } from './sandbox-notification';

const announced = () => sandboxPaymentOf(announcedPayment({ method: 'dict', description: 'aluguel', outcome: 'failed' }));

/** The statuses the settlement notifies for an outcome, from processing until it stops. */
function settlementOf(outcome: SimulatedPixInOutcome): PixInNotifiedStatus[] {
  const path: PixInNotifiedStatus[] = ['processing'];
  for (let next = nextStatus('processing', outcome); next !== null; next = nextStatus(next, outcome)) path.push(next);
  return path;
}

describe('the sandbox as the Pix provider', () => {
  it("notifies a payment with the provider's body, valid by its contract: the receiving account and key, the payment's fields and the status; never the partner, the user or the outcome", () => {
    const payment = announced();

    const notification = notificationOf(payment, SPEC_ISPB, 'approved');

    expect(validateContract(IngestPixInflowCommand, notification)).toMatchObject({ ok: true });
    const { outcome: _outcome, partner_id: _partner, document: _document, receiver, ...fields } = payment;
    expect(notification).toEqual({ ...fields, receiver_account: { ispb: SPEC_ISPB, ...receiver }, status: 'approved' });
    expect(notification.receiver_key).toBe(payment.document);
  });

  it('names no key for a Pix not sent by key', () => {
    const notification = notificationOf(sandboxPaymentOf(announcedPayment({ method: 'manual' })), SPEC_ISPB, 'processing');
    expect(notification).not.toHaveProperty('receiver_key');
    expect(validateContract(IngestPixInflowCommand, notification)).toMatchObject({ ok: true });
  });

  it('leaves description out when the payer sent none (the provider sends none either)', () => {
    const { description: _description, ...withoutDescription } = announced();

    const notification = notificationOf(withoutDescription, SPEC_ISPB, 'processing');

    expect(notification).not.toHaveProperty('description');
    expect(validateContract(IngestPixInflowCommand, notification)).toMatchObject({ ok: true });
  });

  it.each([
    ['credited', ['processing', 'approved', 'success', 'credited']],
    ['denied', ['processing', 'denied']],
    ['failed', ['processing', 'approved', 'failed']],
  ] as const)('settles %s as docs/api.md says: %j', (outcome, statuses) => {
    expect(settlementOf(outcome)).toEqual(statuses);
  });

  it('only ever notifies a move the ingestion takes, and nothing after a final status', () => {
    for (const outcome of SIMULATED_PIX_IN_OUTCOMES) {
      const path = settlementOf(outcome);
      for (let i = 1; i < path.length; i++)
        expect([outcome, path[i - 1], path[i], transitionOf(path[i - 1], path[i])]).toEqual([outcome, path[i - 1], path[i], 'move']);
      for (const final of ['denied', 'failed', 'credited'] as const) expect(nextStatus(final, outcome)).toBeNull();
    }
  });
});
