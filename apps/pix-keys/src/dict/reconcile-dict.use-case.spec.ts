import { PixKey } from '../pix-keys/pix-key.repository';
import { registeredPixKey } from '../pix-keys/pix-key.spec-support';
import { DictRegisteredEntry } from './dict-directory';
import { differences } from './reconcile-dict.use-case';

const key = registeredPixKey();

const entry: DictRegisteredEntry = {
  key: '52998224725',
  keyType: 'CPF',
  account: {
    participant: '99999999',
    branch: '0001',
    accountNumber: '123456789',
    accountType: 'TRAN',
    openingDate: new Date('2026-11-01T03:00:00Z'),
  },
  owner: { type: 'NATURAL_PERSON', taxIdNumber: '52998224725', name: 'Maria Souza' },
  creationDate: new Date('2026-11-24T10:00:05Z'),
  keyOwnershipDate: new Date('2026-11-24T10:00:05Z'),
};

describe('differences: what the reconciliation compares', () => {
  it('finds nothing in the entry as registered', () => expect(differences(key, entry, '99999999')).toBeNull());

  it('names every field that differs', () => {
    const changed: DictRegisteredEntry = {
      ...entry,
      account: { ...entry.account, participant: '00000000', branch: '0002', accountNumber: '1', accountType: 'CACC' },
      owner: { ...entry.owner, name: 'Outra Pessoa' },
    };
    expect(differences(key, changed, '99999999')).toBe('entry_differs: participant, branch, account_number, account_type, name');
  });

  it('compares only key, participant and owner for a key registered before holders were kept', () => {
    const old: PixKey = { ...key, holderName: null, account: null };
    expect(differences(old, { ...entry, owner: { ...entry.owner, name: 'Anyone' } }, '99999999')).toBeNull();
    expect(differences(old, { ...entry, owner: { ...entry.owner, taxIdNumber: '11144477735' } }, '99999999')).toBe('entry_differs: owner');
  });
});
