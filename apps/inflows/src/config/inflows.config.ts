import { IsString, Matches, ValidateBy, ValidationArguments } from 'class-validator';
import { Flag, IntInRange, OperatorIspb, PLACEHOLDER_ISPB, PollIntervalMs, ServiceConfig, SimulatedDelayMs } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

/**
 * The Pix API's base URL: empty (refunds off: asked ones are 501) or an http(s) URL; production needs one, over
 * https, unless its counterparties are test servers (LOCAL_COUNTERPARTIES) or it is the sandbox.
 */
const PixApiUrl = (): PropertyDecorator =>
  ValidateBy({
    name: 'pixApiUrl',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const config = (args?.object ?? {}) as Record<string, unknown>;
        const trial = config.SANDBOX === true || config.LOCAL_COUNTERPARTIES === true;
        if (value === '') return config.NODE_ENV !== 'production' || trial;
        return (
          typeof value === 'string' &&
          (trial || config.NODE_ENV !== 'production' ? /^https?:\/\/[^\s/]+(\/\S*)?$/ : /^https:\/\/[^\s/]+(\/\S*)?$/).test(value)
        );
      },
      defaultMessage: () =>
        "PIX_API_URL must be the https:// base URL of the Pix provider's Pix API (refunds are asked there; http only with LOCAL_COUNTERPARTIES=true or SANDBOX=true)",
    },
  });

export class InflowsConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE.inflows.healthPort;

  /**
   * The gateway's SANDBOX, given to this service too: only then is the simulated payment network (the
   * sandbox's Pix payments, SpiSimulatorModule) loaded, since it credits BRL balances out of nothing.
   */
  @Flag()
  SANDBOX: boolean = false;

  /** Simulated settlement: how long an inflow waits in each step (processing, approved, success) before it moves on. */
  @SimulatedDelayMs()
  PIX_IN_STEP_DELAY_MS: number = 1_000;

  /** How often the simulated settlement looks for inflows to move. */
  @PollIntervalMs()
  PIX_IN_TICK_MS: number = 250;

  /** The counterparties are test servers (the Compose overlay of local chains and the test DICT): the placeholder ISPB is allowed. */
  @Flag()
  LOCAL_COUNTERPARTIES: boolean = false;

  /**
   * The operator's ISPB (8 digits): the institution where users' payment accounts are, as DICT and the SPI
   * name it. A Pix the provider notifies for another ISPB reaches no user (refused). Not stored with the
   * accounts: changing it moves every account. The default is no institution's: production refuses it.
   */
  @OperatorIspb('OPERATOR_ISPB')
  OPERATOR_ISPB: string = PLACEHOLDER_ISPB;

  /**
   * The Pix provider's Pix API (the Central Bank's document, vendor/bacen-pix-api): where refunds of inflows are
   * asked (`PUT /pix/{e2eid}/devolucao/{id}`), e.g. https://pix.provider.example/api/v2. Empty: refunds are off
   * (asking one is 501 not_implemented); production requires it.
   */
  @PixApiUrl()
  PIX_API_URL: string = '';

  /** The OAuth2 token endpoint of the Pix API (client credentials); empty: `<PIX_API_URL>/oauth/token`. */
  @Matches(/^(https?:\/\/\S+)?$/, { message: 'PIX_API_TOKEN_URL must be an http(s) URL, or empty for <PIX_API_URL>/oauth/token' })
  PIX_API_TOKEN_URL: string = '';

  /** The OAuth2 client the provider issued to the operator (PIX_API_CLIENT_SECRET_FILE: its secret, from a file). */
  @IsString()
  PIX_API_CLIENT_ID: string = '';
  @IsString()
  PIX_API_CLIENT_SECRET: string = '';

  /** Mutual TLS with the provider, as the Pix security manual requires of the Pix API: PEM files; empty: none (test servers). */
  @IsString()
  PIX_API_CLIENT_CERT_FILE: string = '';
  @IsString()
  PIX_API_CLIENT_KEY_FILE: string = '';
  @IsString()
  PIX_API_CA_FILE: string = '';

  /** One call's deadline; an unanswered call is read back (GET) before it is made again. */
  @IntInRange(100, 120_000)
  PIX_API_TIMEOUT_MS: number = 10_000;

  /** How often refunds due (to send, or to ask about) are looked for, and how long a processing one waits before it is asked about again. */
  @PollIntervalMs()
  PIX_API_POLL_MS: number = 1_000;

  /** Backoff of a call the provider did not answer: the first wait, doubled per attempt, at most the second. */
  @IntInRange(10, 3_600_000)
  PIX_API_RETRY_BASE_MS: number = 1_000;
  @IntInRange(10, 86_400_000)
  PIX_API_RETRY_MAX_MS: number = 300_000;

  /**
   * Calls after which a refund the provider never accepted is given up: read back once more, and failed (its
   * amount credited back) only when the provider says it has no such devolução.
   */
  @IntInRange(1, 1_000)
  PIX_API_MAX_ATTEMPTS: number = 20;

  /** The branch (agência, 4 digits) new accounts are opened at; each account keeps the branch it was opened at. */
  @Matches(/^\d{4}$/, { message: 'ACCOUNT_BRANCH must be 4 digits' })
  ACCOUNT_BRANCH: string = '0001';
}
