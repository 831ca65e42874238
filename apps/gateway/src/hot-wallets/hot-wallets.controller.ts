import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListFindingsResult, ListHotWalletsResult, ReconcileResult } from '@partner/contracts';
import { ApiAnswer, ApiErrors, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { ReadChainBooksUseCase } from './read-chain-books.use-case';

/** Operator API: the hot wallets that pay withdrawals on chain, and the reconciliation of payouts with the chain. */
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
      "Checks every final withdrawal not yet checked against its receipt (a settled one: exactly one USDT Transfer from the hot wallet to its address of exactly its amount; a failed one: reverted, nothing moved) and the wallet's nonce. Mismatches are recorded as findings (never mended). The same check runs every RECONCILE_INTERVAL_MS. `npm run cli -- reconcile` calls this.",
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
      'Every mismatch the reconciliation found between the books and the chain, newest first (the last 200). Each is an alert to resolve by hand.',
  })
  @ApiAnswer(200, ListFindingsResult, { description: 'The findings' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  findings(): Promise<ListFindingsResult> {
    return this.books.findings();
  }
}
