import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway.config';
import { OperatorKeyRepository } from './operator-key.repository';

export const NO_OPERATOR_KEY =
  'no operator key: set ADMIN_API_KEY (32+ random characters outside the sandbox) or create one in the database with `npm run cli -- operator-key create --name <who>`; the operator API (/admin/v1) would be unusable';

/**
 * At start: ADMIN_API_KEY, when set, becomes an operator key (name `environment`) unless it is one
 * already; then the gateway refuses to start if no operator key is active at all, since nobody could
 * onboard a partner. Runs at application bootstrap, i.e. before the port is opened (and not at all
 * where nothing is started, as when only the OpenAPI document is generated).
 */
@Injectable()
export class OperatorKeysBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(OperatorKeysBootstrap.name);

  constructor(private readonly config: GatewayConfig, private readonly keys: OperatorKeyRepository) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.ADMIN_API_KEY) await this.keys.addEnvironmentKey(this.config.ADMIN_API_KEY);
    const active = await this.keys.countActive();
    if (active === 0) throw new Error(NO_OPERATOR_KEY);
    this.logger.log(`${active} active operator key(s)`);
  }
}
