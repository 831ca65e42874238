import { DynamicModule, Module } from '@nestjs/common';
import { serviceModule } from '@partner/platform';
import { PixKeysConfig } from './config/pix-keys.config';
import { DictModule } from './dict/dict.module';
import { PixKeysModule } from './pix-keys/pix-keys.module';
import { UsersModule } from './users/users.module';

@Module({})
export class AppModule {
  static register(config: PixKeysConfig): DynamicModule {
    return serviceModule(AppModule, {
      name: 'pix-keys',
      configClass: PixKeysConfig,
      config,
      features: [UsersModule, PixKeysModule, DictModule],
    });
  }
}
