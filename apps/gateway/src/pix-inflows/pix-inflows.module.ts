import { DynamicModule, Module } from '@nestjs/common';
import { ForwardingBus } from '../http/forwarding-bus';
import { PixInflowsController } from './pix-inflows.controller';
import { SandboxPixInController } from './sandbox-pix-in.controller';

/** GET /partner/v1/pix-in (docs/api.md: "Pix inflows"), and the sandbox's POST /sandbox/v1/pix-in when SANDBOX=true. */
@Module({})
export class PixInflowsModule {
  static register({ sandbox }: { sandbox: boolean }): DynamicModule {
    return {
      module: PixInflowsModule,
      controllers: [PixInflowsController, ...(sandbox ? [SandboxPixInController] : [])],
      providers: [ForwardingBus],
    };
  }
}
