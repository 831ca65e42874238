import { Module } from '@nestjs/common';
import { ChangePartnerStatusUseCase } from './change-partner-status.use-case';
import { CreatePartnerUseCase } from './create-partner.use-case';
import { GetPartnerUseCase } from './get-partner.use-case';
import { ListPartnersUseCase } from './list-partners.use-case';
import { PartnersController } from './partners.controller';

/** Operator API: partners (the repository is AuthModule's). */
@Module({
  controllers: [PartnersController],
  providers: [CreatePartnerUseCase, ListPartnersUseCase, GetPartnerUseCase, ChangePartnerStatusUseCase],
  exports: [CreatePartnerUseCase],
})
export class PartnersModule {}
