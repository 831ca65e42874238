import { registeredPixKey } from '../pix-keys/pix-key.spec-support';
import { dictEntryOf, entryCid } from './dict-entry';

describe('entryCid', () => {
  it("is the document's example: PHONE +5511987654321, João Silva, RequestId bytes 1..16", () => {
    const cid = entryCid(
      {
        keyType: 'PHONE',
        key: '+5511987654321',
        account: {
          participant: '12345678',
          branch: '00001',
          accountNumber: '0007654321',
          accountType: 'CACC',
          openingDate: new Date('2010-01-10T03:00:00Z'),
        },
        owner: { type: 'NATURAL_PERSON', taxIdNumber: '11122233300', name: 'João Silva' },
      },
      '01020304-0506-0708-090a-0b0c0d0e0f10',
    );
    expect(cid).toBe('28c06eb41c4dc9c3ae114831efcac7446c8747777fca8b145ecd31ff8480ae88');
  });
});

describe('dictEntryOf', () => {
  it('is the key as registered, and nothing for a key kept without its holder or account', () => {
    const key = registeredPixKey();
    expect(dictEntryOf(key)).toMatchObject({ key: key.key, keyType: 'CPF', owner: { taxIdNumber: key.document, name: key.holderName } });
    expect(dictEntryOf({ ...key, account: null })).toBeNull();
    expect(dictEntryOf({ ...key, holderName: null })).toBeNull();
  });
});
