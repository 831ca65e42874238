import { testPartnerId } from '@partner/testing';
import { PixKey } from './pix-key.repository';

/** A CPF key registered at DICT (Maria Souza's, on account 123456789 of ISPB 99999999), for unit specs; `overrides` change any field. */
export const registeredPixKey = (overrides: Partial<PixKey> = {}): PixKey => ({
  id: '0b7f6c1e-2a41-4c55-9a7e-3e2d0f1b9c8d',
  partnerId: testPartnerId('c6b0f8f6-3f6e-4d38-9d7f-5d1c3a9b2f10'),
  document: '52998224725',
  keyType: 'cpf',
  key: '52998224725',
  state: 'registered',
  failureReason: null,
  deletionRequestedAt: null,
  createdAt: new Date('2026-11-24T10:00:00Z'),
  updatedAt: new Date('2026-11-24T10:00:05Z'),
  holderName: 'Maria Souza',
  account: { ispb: '99999999', branch: '0001', number: '123456789', type: 'TRAN', openedAt: new Date('2026-11-01T03:00:00Z') },
  claimPortability: false,
  dictRequestId: '5d6e7f80-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  dictAttempts: 0,
  dictNextAttemptAt: null,
  dictLastError: null,
  dictCheckedAt: null,
  dictMismatch: null,
  ...overrides,
});
