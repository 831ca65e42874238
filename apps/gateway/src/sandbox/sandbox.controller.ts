import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { SandboxUserRequest } from '@partner/contracts';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { AdminKeyGuard } from '../auth/admin-key.guard';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ContractPipe } from '../http/contract-body.pipe';
import { CreatePartnerRequest } from './sandbox.dto';
import { CreatePartnerUseCase, UpsertSandboxUserUseCase } from './sandbox.use-cases';

/** Test helpers, mounted only when SANDBOX=true (README: "Sandbox"). */
@ApiTags('sandbox')
@Controller('sandbox/v1')
export class SandboxController {
  constructor(private readonly createPartner: CreatePartnerUseCase, private readonly upsertUser: UpsertSandboxUserUseCase) {}

  @Post('partners')
  @ApiSecurity('admin')
  @UseGuards(AdminKeyGuard)
  @HttpCode(201)
  partners(@Body(new ContractPipe(CreatePartnerRequest)) body: CreatePartnerRequest) {
    return this.createPartner.execute(body);
  }

  /** 201 when the user was created, 200 when an existing user was credited; answers the new balance. */
  @Post('users')
  @PartnerAuth()
  async users(
    @CurrentPartner() partner: Partner,
    @Body(new ContractPipe(SandboxUserRequest)) body: SandboxUserRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ document: string; usdt_micros: number }> {
    const result = await this.upsertUser.execute(partner.id, body);
    void reply.status(result.created ? 201 : 200);
    return { document: result.document, usdt_micros: result.usdt_micros };
  }
}
