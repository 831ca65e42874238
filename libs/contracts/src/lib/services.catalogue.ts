/**
 * The catalogue of the system's apps: the one place that names them. Lint's scope rules
 * (eslint.config.mjs), the scripts that start a stack, the e2e and compose checks and each app's default
 * ports read it; adding a service starts here (then its project.json, docker-compose.yml and prisma/).
 * Plain data with no import but the topics, so eslint.config.mjs can load it too.
 */
import { Topics } from './topics';

interface ServiceEntry {
  /** Default HEALTH_PORT: the service's internal HTTP server (/healthz, /readyz, /metrics, direct queries). */
  readonly healthPort: number;
  /** The query the gateway's /readyz sends it (the service answers it once its database does). */
  readonly ping: string;
  /** Whether it publishes its events through an outbox of its own (and reports outbox_* metrics). */
  readonly outbox: boolean;
}

/**
 * The Kafka-driven services, in start order. Each owns the topics named `<service>.…` (Topics) and the
 * PostgreSQL schema of its name (prisma/<service>/), and its Nx project is tagged `scope:<service>`.
 */
export const SERVICE_CATALOGUE = {
  withdrawals: { healthPort: 3101, ping: Topics.WithdrawalsPing, outbox: true },
  events: { healthPort: 3102, ping: Topics.EventsPing, outbox: false },
  'pix-keys': { healthPort: 3103, ping: Topics.PixKeysPing, outbox: true },
  customers: { healthPort: 3104, ping: Topics.CustomersPing, outbox: true },
  inflows: { healthPort: 3105, ping: Topics.InflowsPing, outbox: true },
} as const satisfies Record<string, ServiceEntry>;

export type ServiceName = keyof typeof SERVICE_CATALOGUE;

/** The services in start order. */
export const SERVICE_NAMES = Object.keys(SERVICE_CATALOGUE) as ServiceName[];

/**
 * The HTTP front, started after the services it calls. `port` serves the partners (PORT, public);
 * `adminPort` is the internal operator port of the operator API, /readyz and /metrics (ADMIN_PORT), never public.
 */
export const GATEWAY = { name: 'gateway', port: 3000, adminPort: 3100 } as const;

export type AppName = ServiceName | typeof GATEWAY.name;

/** Every app of the stack, in start order: the services, then the gateway. */
export const APP_NAMES: readonly AppName[] = [...SERVICE_NAMES, GATEWAY.name];

/**
 * The PostgreSQL schema (namespace) of an app: its name with '-' turned into '_' (pix-keys -> pix_keys),
 * so that raw SQL and psql never need to quote it. Its login role is `svc_<schema>`.
 */
export function pgSchemaOf(app: string): string {
  const schema = app.replace(/-/g, '_');
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`App name "${app}" does not give a plain PostgreSQL schema name`);
  return schema;
}

/** The Nx tag of an app's project (its project.json), which lint's module boundaries key on. */
export const scopeTagOf = (app: AppName): `scope:${AppName}` => `scope:${app}`;

/** The services that answer a ping; the gateway's /readyz asks each of them. */
export const ServicePings = Object.fromEntries(SERVICE_NAMES.map((name) => [name, SERVICE_CATALOGUE[name].ping])) as {
  readonly [K in ServiceName]: (typeof SERVICE_CATALOGUE)[K]['ping'];
};

/**
 * The bus's super user (docs/adr/0032-authenticated-bus.md): the deploy step's and the tools' principal; each
 * app authenticates as its own, named as the app (bus-principals.ts says what each may do).
 */
export const BUS_ADMIN = 'admin';

/** The SASL mechanism of every principal on the bus (SCRAM-SHA-256 is not enabled on the broker). */
export const BUS_SASL_MECHANISM = 'scram-sha-512';

/** The setting of a bus principal's password (KAFKA_PASSWORD_ADMIN, KAFKA_PASSWORD_PIX_KEYS...): the deploy step's and Compose's. */
export const busPasswordVariable = (principal: string): string => `KAFKA_PASSWORD_${pgSchemaOf(principal).toUpperCase()}`;
