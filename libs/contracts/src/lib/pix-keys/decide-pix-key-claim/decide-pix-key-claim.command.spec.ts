import { validateContract } from '@partner/validation';
import { CancelPixKeyClaimCommand, ConfirmPixKeyClaimCommand } from './decide-pix-key-claim.command';

const target = (extra: Record<string, unknown> = {}) => ({
  partner_id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10',
  document: '52998224725',
  claim_id: '6a1f0c2e-5b7d-4e3a-9c8b-1d2e3f4a5b6c',
  ...extra,
});

describe('the claim decisions (docs/api.md: "Claims")', () => {
  it('confirms with no reason (user_requested) or account_closure; never a reason DICT refuses the donor', () => {
    expect(validateContract(ConfirmPixKeyClaimCommand, target())).toMatchObject({ ok: true });
    expect(validateContract(ConfirmPixKeyClaimCommand, target({ reason: 'account_closure' }))).toMatchObject({ ok: true });
    for (const reason of ['fraud', 'default_operation', 'USER_REQUESTED'])
      expect(validateContract(ConfirmPixKeyClaimCommand, target({ reason }))).toMatchObject({ ok: false, error: { field: 'reason' } });
  });

  it('cancels only with a reason the donor may give: user_requested or fraud', () => {
    expect(validateContract(CancelPixKeyClaimCommand, target({ reason: 'fraud' }))).toMatchObject({ ok: true });
    for (const reason of [undefined, 'account_closure', 'default_operation'])
      expect(validateContract(CancelPixKeyClaimCommand, target({ reason }))).toMatchObject({ ok: false, error: { field: 'reason' } });
  });

  it('names the key by a valid CPF and the claim by a UUID', () => {
    expect(validateContract(CancelPixKeyClaimCommand, target({ reason: 'fraud', document: '52998224700' }))).toMatchObject({
      ok: false,
      error: { code: 'invalid_document' },
    });
    expect(validateContract(CancelPixKeyClaimCommand, target({ reason: 'fraud', claim_id: 'x' }))).toMatchObject({
      ok: false,
      error: { field: 'claim_id' },
    });
  });
});
