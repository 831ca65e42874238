import { Module } from '@nestjs/common';
import { ForwardingBus } from '../http/forwarding-bus';
import { PixProviderController } from './pix-provider.controller';
import { PixSignatureGuard } from './pix-signature.guard';
import { UnmatchedPixInflowsController } from './unmatched-pix-inflows.controller';

/**
 * POST /provider/v2/pix/inflows: the Pix provider's signed notifications (docs/api.md: "Pix provider
 * ingestion"); and, on the operator port, the inflows they named an account of no user for.
 */
@Module({ controllers: [PixProviderController, UnmatchedPixInflowsController], providers: [ForwardingBus, PixSignatureGuard] })
export class PixProviderModule {}
