import { MODULE_METADATA } from '@nestjs/common/constants';
import { PixInflowsController } from './pix-inflows.controller';
import { PixInflowsModule } from './pix-inflows.module';
import { SandboxPixInController } from './sandbox-pix-in.controller';

const controllersOf = (sandbox: boolean) => {
  const module = PixInflowsModule.register({ sandbox });
  return module.controllers ?? Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module.module) ?? [];
};

describe('PixInflowsModule', () => {
  it('mounts the listing always and the sandbox helper only when SANDBOX=true', () => {
    expect(controllersOf(true)).toEqual([PixInflowsController, SandboxPixInController]);
    expect(controllersOf(false)).toEqual([PixInflowsController]);
  });

  it('serves the partner path and the sandbox path', () => {
    expect(Reflect.getMetadata('path', PixInflowsController)).toBe('partner/v1/pix-in');
    expect(Reflect.getMetadata('path', SandboxPixInController)).toBe('sandbox/v1/pix-in');
  });
});
