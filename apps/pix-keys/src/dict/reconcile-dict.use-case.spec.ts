import { testPartnerId } from '@partner/testing';
import { PixKey } from '../pix-keys/pix-key.repository';
import { DictRegisteredEntry } from './dict-directory';
import { differences } from './reconcile-dict.use-case';

const key: PixKey = {
  id: '0b7f6c1e-2a41-4c55-9a7e-3e2d0f1b9c8d',
  partnerId: testPartnerId('c6b0f8f6-3f6e-4d38-9d7f-5d1c3a9b2f10'),
  document: '52998224725',
  key: '52998224725',
  state: 'registered',
  failureReason: null,
  deletionRequestedAt: null,
  createdAt: new Date('2026-11-24T10:00:00Z'),
  updatedAt: new Date('2026-11-24T10:00:05Z'),
  holderName: 'Maria Souza',
  account: { ispb: '99999999', branch: '0001', number: '123456789', type: 'TRAN', openedAt: new Date('2026-11-01T03:00:00Z') },
  dictRequestId: '5d6e7f80-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  dictAttempts: 0,
  dictNextAttemptAt: null,
  dictLastError: null,
  dictCheckedAt: null,
  dictMismatch: null,
};

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
