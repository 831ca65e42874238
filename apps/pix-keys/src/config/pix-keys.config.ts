import { IsNotEmpty, IsOptional, IsString, Matches } from 'class-validator';
import { Flag, IntInRange, OperatorIspb, PollIntervalMs, ServiceConfig } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

const file = (name: string, what: string) => ({ message: `${name} must name the PEM file of ${what}` });

/**
 * The pix-keys service's settings: above all, how it reaches DICT (docs/operations/pix-and-dict.md, "DICT"). Every DICT
 * setting is required, without a default: a deployment names its DICT, its ISPB and its certificates, and
 * the files are read and checked at start-up (dict-credentials.ts), so a missing or wrong one stops the
 * service at once. `npm start`, `npm test` and the chaos run point them at the DICT test server (tools/dict-test-server/).
 */
export class PixKeysConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE['pix-keys'].healthPort;

  /** DICT's API base URL, https only: production `https://dict.pi.rsfn.net.br:16422/api/v1`, homologation `https://dict-h.pi.rsfn.net.br:16522/api/v1`. */
  @Matches(/^https:\/\/[^\s/]+(\/\S*)?$/, {
    message: 'DICT_URL must be the https:// base URL of the DICT API (e.g. https://dict.pi.rsfn.net.br:16422/api/v1)',
  })
  DICT_URL: string = '';

  /** The counterparties are test servers (the Compose overlay of local chains and the test DICT): the placeholder ISPB is allowed. */
  @Flag()
  LOCAL_COUNTERPARTIES: boolean = false;

  /** The operator's ISPB (8 digits): the participant DICT knows it as, and the account's institution. */
  @OperatorIspb('DICT_ISPB', 'OPERATOR_ISPB')
  DICT_ISPB: string = '';

  /**
   * The inflows service's OPERATOR_ISPB, where the deployment gives it to this service too (Compose does): the
   * accounts' institution, which must be DICT_ISPB, or every key fails dict_rejected. Unset: not checked here.
   */
  @IsOptional()
  @Matches(/^\d{8}$/, { message: 'OPERATOR_ISPB must be an ISPB of 8 digits' })
  OPERATOR_ISPB?: string;

  /** Mutual TLS: the operator's client certificate and key, and the CA certificates DICT's server certificate must chain to. */
  @IsString()
  @IsNotEmpty(file('DICT_CLIENT_CERT_FILE', 'the TLS client certificate'))
  DICT_CLIENT_CERT_FILE: string = '';
  @IsString()
  @IsNotEmpty(file('DICT_CLIENT_KEY_FILE', "the TLS client certificate's private key"))
  DICT_CLIENT_KEY_FILE: string = '';
  @IsString()
  @IsNotEmpty(file('DICT_CA_FILE', "the CA certificates of DICT's server"))
  DICT_CA_FILE: string = '';

  /** XML-DSig: the certificate and key that sign every request that changes DICT (createEntry, deleteEntry). */
  @IsString()
  @IsNotEmpty(file('DICT_SIGNING_CERT_FILE', 'the XML signing certificate'))
  DICT_SIGNING_CERT_FILE: string = '';
  @IsString()
  @IsNotEmpty(file('DICT_SIGNING_KEY_FILE', "the XML signing certificate's private key"))
  DICT_SIGNING_KEY_FILE: string = '';

  /** DICT's signing certificate: every answer's signature is checked with it (never with the one an answer carries). */
  @IsString()
  @IsNotEmpty(file('DICT_RESPONSE_SIGNING_CERT_FILE', "DICT's signing certificate"))
  DICT_RESPONSE_SIGNING_CERT_FILE: string = '';

  /** One call's deadline: a call not answered by then counts as unavailable and is made again later. */
  @IntInRange(100, 120_000)
  DICT_TIMEOUT_MS: number = 10_000;

  /** How often the DICT queue looks for registrations and deletions due. */
  @PollIntervalMs()
  DICT_POLL_MS: number = 500;

  /** Keys taken per run of the queue, and how many calls to DICT are in flight at once. */
  @IntInRange(1, 1_000)
  DICT_BATCH: number = 50;
  @IntInRange(1, 64)
  DICT_CONCURRENCY: number = 8;

  /** Backoff of a call DICT did not answer (timeout, 5xx, 429...): the first wait, doubled per attempt, at most the second. */
  @IntInRange(10, 3_600_000)
  DICT_RETRY_BASE_MS: number = 1_000;
  @IntInRange(10, 86_400_000)
  DICT_RETRY_MAX_MS: number = 300_000;

  /**
   * A registration DICT refused with an answer whose signature did not verify is tried again (a certificate being
   * rotated) until its attempts reach this, then fails `dict_rejected`: a partner gets an end, never a key pending for ever.
   */
  @IntInRange(1, 1_000)
  DICT_UNTRUSTED_REFUSAL_ATTEMPTS: number = 5;

  /** Reconciliation: how often registered entries are read back from DICT, how many per run, and how old a check may get. */
  @IntInRange(1_000, 86_400_000)
  DICT_RECONCILE_INTERVAL_MS: number = 300_000;
  @IntInRange(1, 10_000)
  DICT_RECONCILE_BATCH: number = 100;
  @IntInRange(0, 2_592_000_000)
  DICT_RECONCILE_EVERY_MS: number = 86_400_000;

  /**
   * Claims: how often DICT's claims are listed (listClaims, IsDonor), shared by every instance through one lease, so
   * the default (every 5 s, 12 a minute) stays within DICT's CLAIMS_LIST_WITH_ROLE bucket (40 a minute) whatever the
   * number of instances; and how often the claims' own calls (acknowledge, confirm, cancel) and defaults are worked.
   */
  @IntInRange(1_500, 3_600_000)
  DICT_CLAIMS_LIST_MS: number = 5_000;
  @PollIntervalMs()
  DICT_CLAIMS_POLL_MS: number = 1_000;

  /**
   * MED: how often DICT's cases against received payments are listed (listInfractionReports as the credited
   * participant, listRefunds as the contested one), shared by every instance through one lease per kind, so the
   * default (every 10 s, 6 a minute) stays within the INFRACTION_REPORTS_LIST_WITH_ROLE and REFUND_LIST_WITH_ROLE
   * buckets (40 a minute each); and how often each instance sends what the cases owe DICT (acknowledgements, closes).
   */
  @IntInRange(1_500, 3_600_000)
  DICT_MED_LIST_MS: number = 10_000;
  @PollIntervalMs()
  DICT_MED_POLL_MS: number = 1_000;
}
