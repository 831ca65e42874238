import { Injectable } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';

/** What a finding is about, once: a withdrawal, one Transfer log, or the wallet's nonce count on chain. */
export const findingSubject = {
  withdrawal: (id: number) => `withdrawal:${id}`,
  transfer: (txHash: string, logIndex: number) => `transfer:${txHash.toLowerCase()}:${logIndex}`,
  nonce: (wallet: string, minedNonce: bigint) => `nonce:${wallet.toLowerCase()}:${minedNonce}`,
};

/** Once per (network, kind, subject): a finding seen again by a later run is not a new one. */
const RECORD = statement(
  'finding_record',
  `INSERT INTO reconciliation_findings (network, kind, withdrawal_id, subject, detail) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (network, kind, subject) DO NOTHING RETURNING id`,
);

/**
 * Records findings (reconciliation_findings): the payouts record the mismatches their tracking sees and the
 * nonce_ahead stops of a wallet, the reconciliation what its runs see. Their workflow (list, acknowledge,
 * resolve) is the reconciliation's (reconciliation/reconciliation.repository.ts).
 */
@Injectable()
export class FindingRepository {
  constructor(private readonly db: Database) {}

  /** Records a finding (open); its id when it is new, null when it was already recorded. */
  async record(
    network: Network,
    kind: string,
    withdrawalId: number | null,
    subject: string,
    detail: string,
    tx?: Transaction,
  ): Promise<number | null> {
    const { rows } = await (tx ?? this.db).query<{ id: string }>(RECORD, [network, kind, withdrawalId, subject, detail]);
    return rows[0] ? Number(rows[0].id) : null;
  }
}
