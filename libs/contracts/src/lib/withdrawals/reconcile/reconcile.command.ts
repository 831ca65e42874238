import { ApiProperty } from '../../api-documentation';
import { IsISO8601 } from 'class-validator';
import { NETWORKS, Network } from '../withdrawal.types';

/** withdrawals.command.reconcile.v1: check the final withdrawals against the chain now (operator API, `npm run cli -- reconcile`). */
export class ReconcileCommand {
  @IsISO8601()
  asked_at!: string;
}

export class NetworkReconciliation {
  @ApiProperty({ enum: NETWORKS })
  network!: Network;
  @ApiProperty({ type: 'integer', description: 'Final withdrawals checked against their receipts in this run' })
  checked!: number;
  @ApiProperty({ type: 'integer', description: 'Of those, exactly as the books say' })
  matched!: number;
  @ApiProperty({ type: 'integer', description: 'Findings recorded by this run' })
  new_findings!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why this network was not checked (its node did not answer); null when it was',
  })
  error!: string | null;
}

export class ReconcileResult {
  @ApiProperty({ type: 'integer' })
  checked!: number;
  @ApiProperty({ type: 'integer' })
  matched!: number;
  @ApiProperty({ type: 'integer' })
  new_findings!: number;
  @ApiProperty({ type: [NetworkReconciliation] })
  networks!: NetworkReconciliation[];
}

/** withdrawals.query.reconciliation-findings.v1: the findings, newest first. */
export class ListFindingsQuery {
  @IsISO8601()
  asked_at!: string;
}

export class ReconciliationFindingView {
  @ApiProperty({ type: 'integer' })
  id!: number;
  @ApiProperty({ enum: NETWORKS })
  network!: Network;
  @ApiProperty({
    description:
      'receipt_missing, block_changed, settled_but_reverted, failed_but_paid, transfer_mismatch (a settled withdrawal whose transfer is not exactly its amount to its address), nonce_ahead (the wallet sent a transaction the books do not know), nonce_taken; found before a withdrawal ends (it waits for the operator): transfer_mismatch_at_settlement, usdt_moved_at_failure, nodes_disagree',
    example: 'transfer_mismatch',
  })
  kind!: string;
  @ApiProperty({ type: 'integer', nullable: true })
  withdrawal_id!: number | null;
  @ApiProperty()
  detail!: string;
  @ApiProperty({ type: 'integer', description: 'Unix seconds' })
  created_at!: number;
}

export class ListFindingsResult {
  @ApiProperty({ type: [ReconciliationFindingView], description: 'Newest first (the last 200)' })
  findings!: ReconciliationFindingView[];
}
