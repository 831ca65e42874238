import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { SandboxUserRequest, SandboxUserResponse } from '@partner/contracts';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { AdminKeyGuard } from '../operators/admin-key.guard';
import { CreatePartnerRequest, CreatePartnerResponse } from './sandbox.dto';
import { CreateSandboxPartnerUseCase } from './create-sandbox-partner.use-case';
import { UpsertSandboxUserUseCase } from './upsert-sandbox-user.use-case';

/** Test helpers, mounted only when SANDBOX=true (docs/api.md: "Sandbox"). */
@ApiTags('sandbox')
@Controller('sandbox/v1')
export class SandboxController {
  constructor(
    private readonly createPartner: CreateSandboxPartnerUseCase,
    private readonly upsertUser: UpsertSandboxUserUseCase,
  ) {}

  @Post('partners')
  @ApiOperation({
    operationId: 'createSandboxPartner',
    summary: 'Sandbox: create a partner and its API key',
    description: 'Only when SANDBOX=true; needs X-Admin-Key. Not rate limited.',
  })
  @ApiAnswer(201, CreatePartnerResponse, { description: 'Created; the API key is shown this once' })
  @ApiErrors('operator', ['unauthorized', ...JSON_BODY_ERRORS])
  @ApiSecurity('admin')
  @UseGuards(AdminKeyGuard)
  @HttpCode(201)
  partners(@Body(new ContractPipe(CreatePartnerRequest)) body: CreatePartnerRequest): Promise<CreatePartnerResponse> {
    return this.createPartner.execute(body);
  }

  /** 201 when the user was created, 200 when an existing user was credited; answers the new balance. */
  @Post('users')
  @ApiOperation({
    operationId: 'upsertSandboxUser',
    summary: 'Sandbox: create a user with a USDT balance, or credit one',
    description:
      "Only when SANDBOX=true. usdt_micros 0 reads the balance; name sets the holder's name. Answers once every service knows the user, with their payment account.",
  })
  @ApiAnswer(201, SandboxUserResponse, { description: 'Created, with this balance' })
  @ApiAnswer(200, SandboxUserResponse, { description: 'An existing user, credited: the new balance' })
  @ApiErrors('operator', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS])
  @PartnerAuth()
  async users(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(SandboxUserRequest)) body: SandboxUserRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SandboxUserResponse> {
    const result = await this.upsertUser.execute(partner.id, body);
    void reply.status(result.created ? 201 : 200);
    return { document: result.document, usdt_micros: result.usdt_micros, account: result.account };
  }
}
