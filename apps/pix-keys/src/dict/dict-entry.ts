import { createHmac } from 'node:crypto';
import { PixKey } from '../pix-keys/pix-key.repository';
import { DictEntry } from './dict-directory';

/**
 * The entry a key is registered with at DICT: its CPF (or, for an EVP key, the UUID DICT generated, absent until
 * then), the holder's account and name as kept with the key; null when the user had none.
 */
export function dictEntryOf(key: PixKey): DictEntry | null {
  const account = key.account;
  if (!account || key.holderName === null) return null;
  return {
    ...(key.key === null ? {} : { key: key.key }),
    keyType: key.keyType === 'evp' ? 'EVP' : 'CPF',
    account: {
      participant: account.ispb,
      branch: account.branch,
      accountNumber: account.number,
      accountType: account.type,
      openingDate: account.openedAt,
    },
    owner: { type: 'NATURAL_PERSON', taxIdNumber: key.document, name: key.holderName },
  };
}

/** What entryCid reads of an entry (its key type as DICT writes it: CPF, PHONE...). */
export type CidAttributes = Omit<DictEntry, 'keyType' | 'key'> & {
  key: string;
  keyType: string;
  owner: DictEntry['owner'] & { tradeName?: string };
};

/**
 * DICT's content identifier of an entry (openapi.yaml, Reconciliation, "Cálculo de CID"): HMAC-SHA256 keyed by the
 * 16 bytes of the RequestId that created it, over keyType&key&ownerTaxIdNumber&ownerName&ownerTradeName&participant&
 * branch&accountNumber&accountType (absent ones empty), in lowercase hexadecimal. It lets the operator read its own
 * entries back (getEntryByCid), which getEntry refuses (EntryCannotBeQueriedForBookTransfer).
 */
export function entryCid(entry: CidAttributes, requestId: string): string {
  const { account, owner } = entry;
  const attributes = [
    entry.keyType,
    entry.key,
    owner.taxIdNumber,
    owner.name,
    owner.tradeName ?? '',
    account.participant,
    account.branch,
    account.accountNumber,
    account.accountType,
  ].join('&');
  return createHmac('sha256', Buffer.from(requestId.replace(/-/g, ''), 'hex'))
    .update(attributes, 'utf8')
    .digest('hex');
}
