import { parseArgs } from 'node:util';
import { createOperatorApiClient, createPartnerApiClient, OperatorApiClient, PartnerApiClient } from '@partner/api-client';
import { withDatabasePassword } from '@partner/config';

/** The settings the CLI takes from a file too (`<NAME>_FILE`). */
export const CLI_SECRETS = ['ADMIN_API_KEY', 'API_KEY', 'DATABASE_PASSWORD'] as const;

/** The database the operator-key and dead-letter commands work on when DATABASE_URL is unset (npm start's). */
const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/partner';

/** Every flag of every command (parseArgs refuses any other), with the defaults the environment gives. */
export function flagsOf(env: NodeJS.ProcessEnv) {
  return {
    gateway: { type: 'string', default: env.GATEWAY_URL ?? 'http://127.0.0.1:3000' },
    operator: { type: 'string', default: env.OPERATOR_URL ?? 'http://127.0.0.1:3100' },
    environment: { type: 'string', default: env.SANDBOX === 'true' ? 'sandbox' : 'production' },
    'admin-key': { type: 'string', default: env.ADMIN_API_KEY },
    'api-key': { type: 'string', default: env.API_KEY },
    name: { type: 'string' },
    document: { type: 'string' },
    micros: { type: 'string' },
    address: { type: 'string' },
    network: { type: 'string', default: 'MATIC' },
    fee: { type: 'string', default: 'MEDIUM' },
    key: { type: 'string' },
    delivered: { type: 'string', default: 'false' },
    limit: { type: 'string' },
    partner: { type: 'string' },
    customer: { type: 'string' },
    'idempotency-key': { type: 'string' },
    reference: { type: 'string' },
    before: { type: 'string' },
    cursor: { type: 'string' },
    'operator-key': { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    status: { type: 'string' },
    note: { type: 'string' },
    decision: { type: 'string' },
    cents: { type: 'string' },
    'rejection-reason': { type: 'string' },
    source: { type: 'string' },
    'published-at': { type: 'string' },
    all: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  } as const;
}

/** The command line: flags (defaults from `env`) and the positionals (the command's words, then its ids). */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv) {
  return parseArgs({ args: argv, allowPositionals: true, strict: true, options: flagsOf(env) });
}

export type Flags = ReturnType<typeof parseCommandLine>['values'];
/** The flags that take a value. */
export type ValueFlag = { [F in keyof Flags]-?: Flags[F] extends boolean | undefined ? never : F }[keyof Flags];

/** What a command gets: its flags and arguments, and the clients and settings they name. */
export class CommandContext {
  constructor(
    readonly flags: Flags,
    /** The positionals after the command's words (`ack` and `dead-letters show|replay` take ids). */
    readonly args: string[],
    readonly env: NodeJS.ProcessEnv,
    /** The typed clients' transport: the global fetch, or a spec's. */
    private readonly fetch?: (request: Request) => Promise<Response>,
  ) {}

  /** The value of a flag the command requires. */
  need(flag: ValueFlag): string {
    const value = this.flags[flag];
    if (!value) throw new Error(`--${flag} is required (see --help)`);
    return value;
  }

  /** The value of a flag a page or filter takes as a number, when given. */
  number(flag: ValueFlag): number | undefined {
    const value = this.flags[flag];
    return value ? Number(value) : undefined;
  }

  /** DATABASE_URL, with DATABASE_PASSWORD (or its file) set into it when given. */
  get databaseUrl(): string {
    return withDatabasePassword(this.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, this.env.DATABASE_PASSWORD);
  }

  /** The operator API (/admin/v1) on the gateway's operator port, as X-Admin-Key. */
  operatorApi(): OperatorApiClient {
    return createOperatorApiClient({ baseUrl: this.flags.operator, adminKey: this.need('admin-key'), fetch: this.fetch });
  }

  /** The partner API on the public port, as the partner of X-API-Key. */
  partnerApi(): PartnerApiClient {
    return createPartnerApiClient({ baseUrl: this.flags.gateway, apiKey: this.need('api-key'), fetch: this.fetch });
  }

  /** The sandbox's partner creation on the public port, as X-Admin-Key. */
  sandboxAdminApi(): PartnerApiClient {
    return createPartnerApiClient({ baseUrl: this.flags.gateway, adminKey: this.need('admin-key'), fetch: this.fetch });
  }
}

/** A command: its exit code (0 when it succeeded); a thrown error is printed and exits 1. */
export type Command = (c: CommandContext) => Promise<number>;
/** Commands by their words, e.g. `admin partner create`. */
export type Commands = Record<string, Command>;

/** Prints an answer of a typed client (status and body, success or error); 0 when it succeeded. */
export function print({ data, error, response }: { data?: unknown; error?: unknown; response: Response }): number {
  console.log(`${response.status} ${JSON.stringify(data ?? error ?? null)}`);
  return response.ok ? 0 : 1;
}

/** Drops the entries left undefined (flags not given), so that no query parameter goes out empty. */
export function defined<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
