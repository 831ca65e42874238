import { serviceAppModule } from '@partner/platform';
import { PixKeysConfig } from './config/pix-keys.config';
import { DictModule } from './dict/dict.module';
import { PixKeysModule } from './pix-keys/pix-keys.module';
import { UsersModule } from './users/users.module';

export const AppModule = serviceAppModule({
  name: 'pix-keys',
  configClass: PixKeysConfig,
  features: [UsersModule, PixKeysModule, DictModule],
});
