import { serviceAppModule } from '@partner/platform';
import { PixKeysConfig } from './config/pix-keys.config';
import { ClaimsModule } from './claims/claims.module';
import { DictModule } from './dict/dict.module';
import { MedModule } from './med/med.module';
import { PixKeysModule } from './pix-keys/pix-keys.module';
import { UsersModule } from './users/users.module';

export const AppModule = serviceAppModule({
  name: 'pix-keys',
  configClass: PixKeysConfig,
  features: [UsersModule, PixKeysModule, ClaimsModule, MedModule, DictModule],
});
