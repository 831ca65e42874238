import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AccountBalance,
  BrlLedgerPage,
  CreditRequest,
  LedgerPage,
  ListUsersResult,
  OperatorPageRequest,
  UserBalances,
} from '@partner/contracts';
import { FastifyReply } from 'fastify';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, CREDIT_SAMPLES, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { actorOf } from '../operators/operator-name';
import { toApprovalView } from '../approvals/approval-view';
import { ApprovalView } from '../approvals/approvals.dto';
import { PartnerParams } from '../partners/partners.dto';
import { CreditUserUseCase } from './credit-user.use-case';
import { markReplayed } from '../http/idempotent-replayed';
import { GetUserBalanceUseCase } from './get-user-balance.use-case';
import { ReadUserBooksUseCase } from './read-user-books.use-case';
import { RegisterUserUseCase } from './register-user.use-case';
import { AdminUserRequest, AdminUserView, UserParams } from './users.dto';

const PARTNER_ID = { name: 'partner_id', schema: { type: 'string', format: 'uuid' } } as const;
const DOCUMENT = {
  name: 'document',
  description: "The user's CPF, 11 digits",
  schema: { type: 'string', example: '52998224725' },
} as const;

/**
 * Operator API: a partner's users, their payment accounts and their balances (USDT and BRL) and ledgers. The path is validated before the body, in
 * that order every time (Nest would run two pipes at once, and whichever failed first would answer).
 */
@ApiTags('operator')
@Controller('admin/v1/partners/:partner_id/users')
@OperatorAuth()
export class UsersController {
  constructor(
    private readonly registerUser: RegisterUserUseCase,
    private readonly creditUser: CreditUserUseCase,
    private readonly getBalance: GetUserBalanceUseCase,
    private readonly books: ReadUserBooksUseCase,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listUsers',
    summary: "List a partner's users",
    description: 'By CPF, with their USDT balances now; page with cursor=<next_cursor>.',
  })
  @ApiParam(PARTNER_ID)
  @ApiAnswer(200, ListUsersResult, { description: 'A page of users' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request', 'partner_not_found'], OPERATOR_SAMPLES)
  list(@Param() params: unknown, @Query() query: OperatorPageRequest): Promise<ListUsersResult> {
    const { partner_id } = new ContractPipe(PartnerParams).transform(params);
    return this.books.users(partner_id, new ContractPipe(OperatorPageRequest).transform(query));
  }

  @Get(':document/ledger')
  @ApiOperation({
    operationId: 'getUserLedger',
    summary: "Read a user's ledger",
    description:
      "Every movement of the USDT balance, newest first: credits, and each withdrawal's hold (amount + fee, available to held), settlement (the hold paid out) or release (the hold back to available). Deltas are signed micros; the balances after each entry are given. Page with cursor=<next_cursor>.",
  })
  @ApiParam(DOCUMENT)
  @ApiParam(PARTNER_ID)
  @ApiAnswer(200, LedgerPage, { description: 'A page of entries' })
  @ApiErrors(
    'operator',
    [...OPERATOR_ERRORS, 'invalid_request', 'invalid_document', 'partner_not_found', 'user_not_found'],
    OPERATOR_SAMPLES,
  )
  ledger(@Param() params: unknown, @Query() query: OperatorPageRequest): Promise<LedgerPage> {
    const { partner_id, document } = new ContractPipe(UserParams).transform(params);
    return this.books.ledger(partner_id, document, new ContractPipe(OperatorPageRequest).transform(query));
  }

  @Get(':document/brl-ledger')
  @ApiOperation({
    operationId: 'getUserBrlLedger',
    summary: "Read a user's BRL ledger",
    description:
      "Every movement of the BRL balance of the user's payment account, newest first: each Pix inflow credited (pix_in_credit, once per end_to_end_id). Deltas are signed cents; the balance after each entry is given. Page with cursor=<next_cursor>. The USDT ledger is GET .../ledger.",
  })
  @ApiParam(DOCUMENT)
  @ApiParam(PARTNER_ID)
  @ApiAnswer(200, BrlLedgerPage, { description: 'A page of entries' })
  @ApiErrors(
    'operator',
    [...OPERATOR_ERRORS, 'invalid_request', 'invalid_document', 'partner_not_found', 'user_not_found'],
    OPERATOR_SAMPLES,
  )
  brlLedger(@Param() params: unknown, @Query() query: OperatorPageRequest): Promise<BrlLedgerPage> {
    const { partner_id, document } = new ContractPipe(UserParams).transform(params);
    return this.books.brlLedger(partner_id, document, new ContractPipe(OperatorPageRequest).transform(query));
  }

  @Post()
  @ApiOperation({
    operationId: 'registerUser',
    summary: 'Register a user of a partner',
    description:
      "Known to every service (withdrawals, Pix keys, Pix inflows) when answered, with a payment account at the operator (opened at the first registration) and, when given, the holder's name. Safe to retry; registering an existing user again with a name sets it, and hands the Pix keys service the account (how users registered before accounts existed get theirs there).",
  })
  @ApiParam(PARTNER_ID)
  @ApiBody({ type: AdminUserRequest })
  @ApiAnswer(201, AdminUserView, { description: 'Registered' })
  @ApiAnswer(200, AdminUserView, { description: 'Registered before: since created_at' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'invalid_document', 'partner_not_found'], OPERATOR_SAMPLES)
  async register(@Param() params: unknown, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<AdminUserView> {
    const { partner_id } = new ContractPipe(PartnerParams).transform(params);
    const { document, name } = new ContractPipe(AdminUserRequest).transform(body);
    const user = await this.registerUser.execute(partner_id, document, name);
    void reply.status(user.created ? 201 : 200);
    return { document: user.document, created_at: user.created_at, account: user.account };
  }

  @Post(':document/credits')
  @ApiOperation({
    operationId: 'creditUser',
    summary: "Credit a user's USDT balance",
    description:
      'Money that arrived for the user (a deposit, a correction). The same idempotency_key again credits nothing and answers 200. Dual control: a credit above CREDIT_APPROVAL_THRESHOLD_USDT_MICROS (default 10,000 USDT) moves nothing yet: it answers 202 with an approval (status pending_approval) that a second, different operator key approves or rejects (POST /admin/v1/approvals/{id}); the same request again answers that approval (its status now). The ledger line names the key(s) that credited.',
  })
  @ApiParam(DOCUMENT)
  @ApiParam(PARTNER_ID)
  @ApiBody({ type: CreditRequest })
  @ApiAnswer(201, AccountBalance, { description: 'Credited: the balance after it' })
  @ApiAnswer(200, AccountBalance, {
    description: 'The idempotency_key was used before with the same credit: nothing credited, the balance now (Idempotent-Replayed: true)',
    replayable: true,
  })
  @ApiAnswer(202, ApprovalView, {
    description:
      'Above the approval threshold: nothing credited yet; a second operator key must approve it (POST /admin/v1/approvals/{id})',
  })
  @ApiErrors(
    'operator',
    [
      ...OPERATOR_ERRORS,
      ...JSON_BODY_ERRORS,
      'invalid_document',
      'partner_not_found',
      'user_not_found',
      'idempotency_key_reused',
      'invalid_amount',
    ],
    CREDIT_SAMPLES,
  )
  @HttpCode(201)
  async credit(
    @Param() params: unknown,
    @Body() body: unknown,
    @Req() request: OperatorRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccountBalance | ApprovalView> {
    const { partner_id, document } = new ContractPipe(UserParams).transform(params);
    const credit = new ContractPipe(CreditRequest).transform(body);
    const outcome = await this.creditUser.execute(partner_id, document, credit, actorOf(request));
    if ('pending' in outcome) {
      void reply.status(202);
      return toApprovalView(outcome.pending);
    }
    const { available_usdt_micros, held_usdt_micros, replayed } = outcome.credited;
    void reply.status(replayed ? 200 : 201);
    markReplayed(reply, replayed);
    return { available_usdt_micros, held_usdt_micros };
  }

  @Get(':document/balance')
  @ApiOperation({
    operationId: 'getUserBalance',
    summary: "Read a user's balances (USDT and BRL)",
    description:
      "USDT available to withdraw, and held by withdrawals not final yet; BRL in the user's payment account (the Pix inflows credited to it).",
  })
  @ApiAnswer(200, UserBalances, { description: 'The balances' })
  @ApiErrors(
    'operator',
    [...OPERATOR_ERRORS, 'invalid_request', 'invalid_document', 'partner_not_found', 'user_not_found'],
    OPERATOR_SAMPLES,
  )
  balance(@Param(new ContractPipe(UserParams)) params: UserParams): Promise<UserBalances> {
    return this.getBalance.execute(params.partner_id, params.document);
  }
}
