/** The variables docker-compose.yml requires (`${NAME:?...}`), shared by compose:up and the Compose files' specs; the files' shape for the specs. */
import { APP_NAMES, BUS_ADMIN, busPasswordVariable, pgSchemaOf } from '@partner/contracts';

/** The secrets: no default anywhere; compose:up generates the missing ones. */
export const SECRET_VARIABLES: readonly string[] = [
  'ADMIN_API_KEY',
  'INTERNAL_SECRET',
  'POSTGRES_PASSWORD',
  ...APP_NAMES.map((app) => `DB_PASSWORD_${pgSchemaOf(app).toUpperCase()}`),
  ...[BUS_ADMIN, ...APP_NAMES].map(busPasswordVariable),
];

/**
 * The operator's own secrets, never generated: Compose secret files too (compose:up writes each from the
 * environment or the env file), so no container's environment holds a node URL with a provider's key, the
 * SMTP password, the Twilio token or the Pix API client's secret. The required ones stop compose:up when missing; an optional one not
 * given is an empty file, which the apps read as unset.
 */
export const OPERATOR_SECRET_VARIABLES = {
  required: ['CHAIN_RPC_URL_ETH', 'CHAIN_RPC_URL_MATIC', 'SMTP_URL', 'TWILIO_AUTH_TOKEN'],
  optional: [
    'CHAIN_RPC_URL_2_ETH',
    'CHAIN_RPC_URL_2_MATIC',
    'REMOTE_SIGNER_URL',
    'REMOTE_SIGNER_URL_ETH',
    'REMOTE_SIGNER_URL_MATIC',
    'PIX_PROVIDER_WEBHOOK_SECRET',
    'PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS',
    'PIX_API_CLIENT_SECRET',
  ],
} as const;

/** The operator's chain nodes: required in production mode. */
export const CHAIN_URL_VARIABLES: readonly string[] = ['CHAIN_RPC_URL_ETH', 'CHAIN_RPC_URL_MATIC'];

/**
 * The hot wallet pool's keys: each a Compose secret from the host file its variable names, mounted at
 * /run/secrets/<secret>; the withdrawals service reads them all (HOT_WALLET_KEY_FILE, comma-separated).
 */
export const HOT_WALLET_KEY_SECRETS: ReadonlyArray<{ secret: string; variable: string }> = [
  { secret: 'hot_wallet_key', variable: 'HOT_WALLET_KEY_SECRET_FILE' },
  { secret: 'hot_wallet_key_2', variable: 'HOT_WALLET_KEY_2_SECRET_FILE' },
];

/** For the specs: the chain nodes and the host files of the hot wallet keys (the Compose secrets), fake. */
export const EXAMPLE_CHAIN_ENV: Readonly<Record<string, string>> = {
  CHAIN_RPC_URL_ETH: 'https://eth.node.example/rpc',
  CHAIN_RPC_URL_MATIC: 'https://polygon.node.example/rpc',
  HOT_WALLET_KEY_SECRET_FILE: '/etc/partner/hot-wallet.key',
  HOT_WALLET_KEY_2_SECRET_FILE: '/etc/partner/hot-wallet-2.key',
};

/** For the specs: what an operator sets for a production start (fake values), nothing else. */
export const EXAMPLE_PRODUCTION_ENV: Readonly<Record<string, string>> = {
  ...Object.fromEntries(SECRET_VARIABLES.map((name, i) => [name, `${'x'.repeat(40)}${i}`])),
  ...EXAMPLE_CHAIN_ENV,
  // The other counterparties: DICT (and the folder of its certificates), the Pix provider's Pix API, SMTP, Twilio.
  DICT_URL: 'https://dict.pi.rsfn.net.br:16422/api/v1',
  DICT_ISPB: '12345678',
  DICT_CERTS_DIR: '/etc/partner/dict',
  PIX_API_URL: 'https://pix.provider.example/api/v2',
  PIX_API_CLIENT_ID: 'partner-service',
  PIX_API_CLIENT_SECRET: 'pix-api-client-secret',
  SMTP_URL: 'smtps://mailer:secret@smtp.example:465',
  SMTP_FROM: 'Cadastro <nao-responda@example.com.br>',
  TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  TWILIO_AUTH_TOKEN: 'token',
  // The folder of the deployment's secret files (the Compose secrets admin_api_key, db_password_<schema>...).
  COMPOSE_SECRETS_DIR: '/etc/partner/secrets',
  // The public port's TLS certificate and key (the Compose secrets proxy_tls_cert and proxy_tls_key).
  PROXY_TLS_CERT_FILE: '/etc/partner/tls/api.pem',
  PROXY_TLS_KEY_FILE: '/etc/partner/tls/api.key',
  // The broker's (the Compose secrets kafka_tls_cert and kafka_tls_key).
  KAFKA_TLS_CERT_FILE: '/etc/partner/tls/kafka.pem',
  KAFKA_TLS_KEY_FILE: '/etc/partner/tls/kafka.key',
};

/** A service of the Compose files, as far as the specs read it. */
export interface Service {
  image?: string;
  build?: { target?: string } | string;
  volumes?: string[];
  pull_policy?: string;
  command?: string[] | string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  ports?: Array<{ target?: number | string; published?: number | string } | string>;
  restart?: string;
  secrets?: Array<string | { source: string }>;
  networks?: string[] | Record<string, unknown>;
  read_only?: boolean;
  tmpfs?: string[] | string;
  cap_drop?: string[];
  security_opt?: string[];
  mem_limit?: string;
  pids_limit?: number;
  ulimits?: Record<string, number | { soft: number; hard: number }>;
}
export interface ComposeConfig {
  services: Record<string, Service>;
  networks?: Record<string, unknown>;
  secrets?: Record<string, { file?: string; external?: boolean; environment?: string }>;
}
