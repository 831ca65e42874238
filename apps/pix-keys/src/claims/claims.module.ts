import { Module } from '@nestjs/common';
import { DecidePixKeyClaimUseCase } from './decide-pix-key-claim.use-case';
import { PixKeyClaimRepository } from './pix-key-claim.repository';
import { PixKeyClaimsHandler } from './pix-key-claims.handler';

/** The partner's decisions on claims of its keys; the worker that talks to DICT about them is DictModule's. */
@Module({
  controllers: [PixKeyClaimsHandler],
  providers: [PixKeyClaimRepository, DecidePixKeyClaimUseCase],
})
export class ClaimsModule {}
