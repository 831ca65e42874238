/**
 * `npm run cli -- <command>`: the operator API (docs/api.md: "Operator API") and the sandbox helpers from a
 * terminal, through the same HTTP API partners use, with the typed client (libs/api-client) generated
 * from the OpenAPI document; operator keys and dead letters straight in the database. GATEWAY_URL (the
 * public port, default http://127.0.0.1:3000), OPERATOR_URL (the gateway's operator port, where /admin/v1
 * answers: default http://127.0.0.1:3100), ADMIN_API_KEY and API_KEY come from the environment or the
 * --gateway, --operator, --admin-key and --api-key flags; DATABASE_URL from the environment.
 */
import { withSettingFiles } from '@partner/config';
import { CLI_SECRETS, CommandContext, Commands, parseCommandLine } from './command-context';
import { DEAD_LETTER_COMMANDS } from './dead-letters/dead-letters.command';
import { HELP } from './help';
import { OPERATOR_API_COMMANDS } from './operator-api/operator-api.commands';
import { OPERATOR_KEY_COMMANDS } from './operator-keys/operator-key.commands';
import { SANDBOX_COMMANDS } from './sandbox/sandbox.commands';
import { SCREENING_COMMANDS } from './screening/screening.commands';

/** Every command by its words; HELP lists exactly these (operator-cli.spec.ts). */
export const COMMANDS: Commands = {
  ...OPERATOR_API_COMMANDS,
  ...SCREENING_COMMANDS,
  ...OPERATOR_KEY_COMMANDS,
  ...DEAD_LETTER_COMMANDS,
  ...SANDBOX_COMMANDS,
};

/** The command the positionals name (its longest match: up to three words) and the positionals after it. */
export function resolveCommand(positionals: string[]): { name: string; args: string[] } | undefined {
  for (let words = Math.min(3, positionals.length); words > 0; words--) {
    const name = positionals.slice(0, words).join(' ');
    if (Object.hasOwn(COMMANDS, name)) return { name, args: positionals.slice(words) };
  }
  return undefined;
}

export interface OperatorCliOptions {
  /** Where the flags' defaults and DATABASE_URL come from. */
  env?: NodeJS.ProcessEnv;
  /** The typed clients' transport (specs); the global fetch otherwise. */
  fetch?: (request: Request) => Promise<Response>;
}

/** Runs one command line; its exit code. Throws (the message is for the operator) on a missing or unknown flag. */
export async function runOperatorCli(argv: string[], { env: given = process.env, fetch }: OperatorCliOptions = {}): Promise<number> {
  // The keys and the database password may be files (ADMIN_API_KEY_FILE...), as Compose's `tools` container gives them.
  const env = withSettingFiles(CLI_SECRETS, given);
  const { values: flags, positionals } = parseCommandLine(argv, env);
  if (flags.help || positionals.length === 0) {
    console.log(HELP);
    return flags.help ? 0 : 1;
  }
  const command = resolveCommand(positionals);
  if (!command) {
    console.error(`unknown command: ${positionals.join(' ')}\n\n${HELP}`);
    return 1;
  }
  return COMMANDS[command.name](new CommandContext(flags, command.args, env, fetch));
}
