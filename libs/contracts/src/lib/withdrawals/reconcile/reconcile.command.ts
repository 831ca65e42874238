import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
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

/** A finding's workflow: open (needs action) → acknowledged (someone is on it) → resolved; or open → resolved. */
export const FINDING_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];

/** `?status=` of GET /admin/v1/reconciliation/findings. */
export class FindingsFilter {
  @ApiPropertyOptional({ enum: FINDING_STATUSES, description: 'Only the findings in this status (all when absent)' })
  @IsOptional()
  @IsIn(FINDING_STATUSES, { message: `status must be one of ${FINDING_STATUSES.join(', ')}` })
  status?: FindingStatus;
}

/** withdrawals.query.reconciliation-findings.v1: the findings, newest first, optionally of one status. */
export class ListFindingsQuery extends FindingsFilter {
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
      "receipt_missing, block_changed, settled_but_reverted, failed_but_paid, transfer_mismatch (a settled withdrawal whose transfer is not exactly its amount to its address), nonce_ahead (the wallet sent a transaction the books do not know: its signing stops until this is resolved), nonce_taken (a withdrawal's nonce was mined by another transaction: resolving it fails the withdrawal and releases its hold), outside_transfer (USDT left the hot wallet in a transfer no withdrawal explains); found before a withdrawal ends (it waits for the operator): transfer_mismatch_at_settlement, usdt_moved_at_failure, nodes_disagree",
    example: 'transfer_mismatch',
  })
  kind!: string;
  @ApiProperty({ type: 'integer', nullable: true })
  withdrawal_id!: number | null;
  @ApiProperty({
    description:
      'What makes it one finding: withdrawal:<id>, transfer:<tx hash>:<log index>, nonce:<wallet>:<transactions counted on chain>',
    example: 'withdrawal:42',
  })
  subject!: string;
  @ApiProperty()
  detail!: string;
  @ApiProperty({ enum: FINDING_STATUSES, description: 'open needs action; acknowledged: someone is on it; resolved: done' })
  status!: FindingStatus;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix seconds' })
  acknowledged_at!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The operator key (name and prefix) that acknowledged it' })
  acknowledged_by!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix seconds' })
  resolved_at!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The operator key (name and prefix) that resolved it' })
  resolved_by!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The operators' notes, one line per step" })
  note!: string | null;
  @ApiProperty({ type: 'integer', description: 'Unix seconds' })
  created_at!: number;
}

export class ListFindingsResult {
  @ApiProperty({ type: [ReconciliationFindingView], description: 'Newest first (the last 200)' })
  findings!: ReconciliationFindingView[];
}
