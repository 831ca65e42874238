import { DynamicModule, Module } from '@nestjs/common';

/** GET /partner/v1/pix-in (spec 4.5), and the sandbox's POST /sandbox/v1/pix-in when SANDBOX=true. */
@Module({})
export class PixInflowsModule {
  static register({ sandbox }: { sandbox: boolean }): DynamicModule {
    void sandbox;
    return { module: PixInflowsModule, controllers: [], providers: [] };
  }
}
