import { getBankByIspb } from '@brazilian-utils/brazilian-utils';
import { ACCOUNT_NUMBER_PATTERN, BRANCH_CODE_PATTERN, isCpfOrCnpj, PixReceivedEvent, SENDER_ACCOUNT_TYPES } from '@partner/contracts';
import { isCpf, validateContract } from '@partner/validation';
import { newCpf, newUuid } from '@partner/testing';
import { newEndToEndId } from './end-to-end-id';
import { completeSender, PAYER_BANKS, SenderDetails } from './sender-details';

describe('completeSender', () => {
  const generated = Array.from({ length: 300 }, () => completeSender({}));

  it('makes up a valid CPF or CNPJ, both kinds turning up', () => {
    for (const s of generated)
      expect({ taxId: s.sender_tax_id, valid: isCpfOrCnpj(s.sender_tax_id) }).toEqual({ taxId: s.sender_tax_id, valid: true });
    expect(generated.some((s) => isCpf(s.sender_tax_id))).toBe(true);
    expect(generated.some((s) => /^\d{14}$/.test(s.sender_tax_id))).toBe(true);
  });

  it('picks payer banks from a list of real institutions (ISPB known to the bank registry)', () => {
    for (const bank of PAYER_BANKS) expect(getBankByIspb(bank.ispb)).toMatchObject({ ispb: bank.ispb });
    for (const s of generated) expect(PAYER_BANKS.map((b) => b.ispb)).toContain(s.sender_bank_code);
  });

  it('fills branch, account and account type in their formats', () => {
    for (const s of generated) {
      expect(s.sender_branch_code).toMatch(BRANCH_CODE_PATTERN);
      expect(s.sender_account_number).toMatch(ACCOUNT_NUMBER_PATTERN);
      expect(SENDER_ACCOUNT_TYPES).toContain(s.sender_account_type);
      expect(s.sender_name.length).toBeGreaterThan(0);
    }
    // Digital institutions have one branch and hold payment accounts.
    const digital = generated.filter((s) => PAYER_BANKS.find((b) => b.ispb === s.sender_bank_code)?.digital);
    expect(digital.length).toBeGreaterThan(0);
    for (const s of digital) expect([s.sender_branch_code, s.sender_account_type]).toEqual(['0001', 'payment']);
  });

  it('keeps every field the caller gave as it is', () => {
    const given: SenderDetails = {
      sender_name: 'Maria da Silva',
      sender_tax_id: 'L27I48V0E4UK99',
      sender_account_number: '123456',
      sender_account_type: 'salary',
      sender_bank_code: '12345678',
      sender_branch_code: '42',
    };
    expect(completeSender(given)).toEqual(given);
  });

  it('completes around the given fields: a given unknown ISPB is kept, the rest made up', () => {
    const s = completeSender({ sender_bank_code: '99999999', sender_tax_id: '52998224725' });
    expect(s).toMatchObject({ sender_bank_code: '99999999', sender_tax_id: '52998224725' });
    expect(s.sender_branch_code).toMatch(BRANCH_CODE_PATTERN);
  });

  it('produces announcements the network contract accepts', () => {
    for (const sender of generated.slice(0, 50)) {
      const at = new Date();
      const event = {
        partner_id: newUuid(),
        document: newCpf(),
        end_to_end_id: newEndToEndId(sender.sender_bank_code, at),
        amount_cents: 100,
        method: 'manual',
        ...sender,
        outcome: 'credited',
        sent_at: at.toISOString(),
      };
      expect(validateContract(PixReceivedEvent, event)).toMatchObject({ ok: true });
    }
  });
});
