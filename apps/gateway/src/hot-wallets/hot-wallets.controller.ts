import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CancelPayoutRequest,
  FindingNoteRequest,
  FindingParams,
  FindingsFilter,
  FindingStep,
  ListFindingsResult,
  ListHotWalletsResult,
  PayoutParams,
  PayoutView,
  ReconcileResult,
  ReconciliationFindingView,
} from '@partner/contracts';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { operatorName } from '../operators/operator-name';
import { ReadChainBooksUseCase } from './read-chain-books.use-case';

/** The steps' refusals, as the operator reads them. */
const FINDING_SAMPLES = {
  ...OPERATOR_SAMPLES,
  not_found: { when: 'no finding with the id of the path', message: 'no finding 42' },
  invalid_transition: {
    when: 'the finding is resolved already, or acknowledged already (acknowledge)',
    message: 'finding 42 is resolved: it cannot be acknowledged',
  },
};

/** A cancel's refusals, as the operator reads them. */
const CANCEL_SAMPLES = {
  ...OPERATOR_SAMPLES,
  not_found: { when: 'no withdrawal with the id of the path', message: 'no withdrawal 42' },
  invalid_transition: {
    when: 'its payout holds no nonce to cancel (queued, aside), is mined already, is cancelling already, or finished',
    message: "withdrawal 42's payout is mined: only a signed payout not yet mined can be cancelled",
  },
};

/**
 * Operator API: the hot wallets that pay withdrawals on chain, the reconciliation of payouts with the chain,
 * and the cancel of a payout's stuck nonce.
 */
@ApiTags('operator')
@Controller('admin/v1')
@OperatorAuth()
export class HotWalletsController {
  constructor(private readonly books: ReadChainBooksUseCase) {}

  @Get('hot-wallets')
  @ApiOperation({
    operationId: 'listHotWallets',
    summary: 'Read the hot wallets',
    description:
      'Each network\'s hot wallet: its address, the USDT contract, its USDT and native-coin (gas) balances read off the node now (null when the node does not answer), the withdrawals not final yet, and the nonce its next payout takes. Fund it by sending USDT and ETH/POL to the address (docs/operations/payouts.md, "Funding the hot wallet").',
  })
  @ApiAnswer(200, ListHotWalletsResult, { description: 'One entry per network' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  hotWallets(): Promise<ListHotWalletsResult> {
    return this.books.hotWallets();
  }

  @Post('reconciliation/runs')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'runReconciliation',
    summary: 'Reconcile payouts with the chain now',
    description:
      "Checks every final withdrawal not yet checked against its receipt (a settled one: exactly one USDT Transfer from the hot wallet to its address of exactly its amount; a failed one: reverted, nothing moved) and the wallet's nonce. Mismatches are recorded as findings (never mended). This run reads receipts for 5 s at most (the rest wait for the next run; `checked` says how many it read); the same check runs every RECONCILE_INTERVAL_MS, without that limit. `npm run cli -- reconcile` calls this.",
  })
  @ApiAnswer(200, ReconcileResult, { description: 'What this run checked and found' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  reconcile(): Promise<ReconcileResult> {
    return this.books.reconcile();
  }

  @Get('reconciliation/findings')
  @ApiOperation({
    operationId: 'listReconciliationFindings',
    summary: 'Read the reconciliation findings',
    description:
      'Every mismatch the reconciliation found between the books and the chain, newest first (the last 200), or only those of one `status`. Each is an alert: acknowledge it while you look into it, resolve it when done (docs/operations/payouts.md, "A reconciliation finding").',
  })
  @ApiAnswer(200, ListFindingsResult, { description: 'The findings' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  findings(@Query(new ContractPipe(FindingsFilter)) query: FindingsFilter): Promise<ListFindingsResult> {
    return this.books.findings(query.status);
  }

  @Post('reconciliation/findings/:id/acknowledge')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'acknowledgeReconciliationFinding',
    summary: 'Acknowledge a finding',
    description:
      'open → acknowledged: someone is on it. Records the operator key and the note. An acknowledged finding still shows in the list, but no longer makes `npm run cli -- reconcile` exit non-zero. Audited like every operator call.',
  })
  @ApiAnswer(200, ReconciliationFindingView, { description: 'The finding, acknowledged' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'not_found', 'invalid_transition'], FINDING_SAMPLES)
  acknowledge(
    @Param(new ContractPipe(FindingParams)) params: FindingParams,
    @Body(new ContractPipe(FindingNoteRequest)) body: FindingNoteRequest,
    @Req() request: OperatorRequest,
  ): Promise<ReconciliationFindingView> {
    return this.step(params, 'acknowledge', body, request);
  }

  @Post('reconciliation/findings/:id/resolve')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'resolveReconciliationFinding',
    summary: 'Resolve a finding',
    description:
      'open or acknowledged → resolved, with the operator key and the note. Resolving a nonce_ahead finding lets its hot wallet sign again (rotate the key first); resolving a nonce_taken finding fails its withdrawal and releases the hold. A resolved finding cannot move again (409 invalid_transition). Audited like every operator call.',
  })
  @ApiAnswer(200, ReconciliationFindingView, { description: 'The finding, resolved' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'not_found', 'invalid_transition'], FINDING_SAMPLES)
  resolve(
    @Param(new ContractPipe(FindingParams)) params: FindingParams,
    @Body(new ContractPipe(FindingNoteRequest)) body: FindingNoteRequest,
    @Req() request: OperatorRequest,
  ): Promise<ReconciliationFindingView> {
    return this.step(params, 'resolve', body, request);
  }

  @Post('payouts/:withdrawal_id/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelPayout',
    summary: "Cancel a payout's nonce",
    description:
      'signed or broadcast (not yet mined) → cancelling, with the operator key and the note. The next payout round signs a 0-value transfer of the hot wallet to itself at that nonce, with higher fees, and broadcasts it. If the cancel is mined and final, the withdrawal waits for a new nonce (from whichever wallet) and is paid again (the partner still sees it `sent`; its tx_hash changes); if its transfer is mined first, it settles as usual. It can never pay twice: the two share the nonce. For a nonce that can never be mined (docs/operations/payouts.md, "Cancelling a stuck nonce"). Audited like every operator call.',
  })
  @ApiAnswer(200, PayoutView, { description: 'The payout, cancelling' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'not_found', 'invalid_transition'], CANCEL_SAMPLES)
  cancelPayout(
    @Param(new ContractPipe(PayoutParams)) params: PayoutParams,
    @Body(new ContractPipe(CancelPayoutRequest)) body: CancelPayoutRequest,
    @Req() request: OperatorRequest,
  ): Promise<PayoutView> {
    return this.books.cancelPayout(params.withdrawal_id, body, operatorName(request));
  }

  private step(
    params: FindingParams,
    step: FindingStep,
    body: FindingNoteRequest,
    request: OperatorRequest,
  ): Promise<ReconciliationFindingView> {
    return this.books.step(params.id, step, body, operatorName(request));
  }
}
