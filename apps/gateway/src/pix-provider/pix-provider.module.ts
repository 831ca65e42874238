import { Module } from '@nestjs/common';
import { ForwardingBus } from '../http/forwarding-bus';
import { PixProviderController } from './pix-provider.controller';
import { PixSignatureGuard } from './pix-signature.guard';

/** POST /provider/v1/pix/inflows: the Pix provider's signed notifications (docs/api.md: "Pix provider ingestion"). */
@Module({ controllers: [PixProviderController], providers: [ForwardingBus, PixSignatureGuard] })
export class PixProviderModule {}
