import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { environmentOf } from '@partner/operator-access';
import { GatewayConfig } from '../config/gateway.config';
import { OperatorKeyRepository } from './operator-key.repository';

export const NO_OPERATOR_KEY =
  "no active operator key of this gateway's environment: set ADMIN_API_KEY (32+ random characters outside the sandbox) or create one in the database with `npm run cli -- operator-key create --name <who>`; the operator API (/admin/v1) would be unusable";

/** ADMIN_API_KEY is stored as another environment's key: this gateway would refuse its own key. */
export const adminKeyOfOtherEnvironment = (stored: string, gateway: string): string =>
  `ADMIN_API_KEY is stored on this database as an operator key of the ${stored} environment (a ${stored} gateway started with it first), so this ${gateway} gateway refuses it: set another ADMIN_API_KEY (e.g. \`openssl rand -base64 32\`), and revoke the old one (\`npm run cli -- operator-key list\`, then \`operator-key revoke --key ID\`)`;

/**
 * At start: ADMIN_API_KEY, when set, becomes an operator key (name `environment`) of this gateway's
 * environment unless it is one already; a gateway refuses to start with an ADMIN_API_KEY stored for the
 * other environment (docs/adr/0019-production-safe-by-default.md), and if no operator key of its
 * environment is active at all, since nobody could onboard a partner. Runs at application bootstrap, i.e. before the port is opened (and not at all
 * where nothing is started, as when only the OpenAPI document is generated).
 */
@Injectable()
export class OperatorKeysBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(OperatorKeysBootstrap.name);

  constructor(
    private readonly config: GatewayConfig,
    @Inject(OperatorKeyRepository) private readonly keys: Pick<OperatorKeyRepository, 'addEnvironmentKey' | 'countActive'>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const environment = environmentOf(this.config);
    if (this.config.ADMIN_API_KEY) {
      const stored = await this.keys.addEnvironmentKey(this.config.ADMIN_API_KEY, environment);
      if (stored !== environment) throw new Error(adminKeyOfOtherEnvironment(stored, environment));
    }
    const active = await this.keys.countActive(environment);
    if (active === 0) throw new Error(NO_OPERATOR_KEY);
    this.logger.log(`${active} active operator key(s) of the ${environment} environment`);
  }
}
