/**
 * `operator-key ...`: the gateway's own functions (libs/operator-access) on a pg pool, so the first key needs no
 * running gateway. Create and revoke are audited in gateway.audit_log, and a revocation is broadcast through
 * the gateway's outbox (OperatorKeyCommands), like the operator API's key operations.
 */
import { Pool } from 'pg';
import { KEY_ENVIRONMENTS, KeyEnvironment, listOperatorKeys, OperatorKeyCommands } from '@partner/operator-access';
import { CommandContext, Commands } from '../command-context';

/** Runs `work` on a one-connection pool on the gateway's schema (the outbox row goes to its outbox_messages). */
async function onGatewaySchema(c: CommandContext, work: (pool: Pool) => Promise<number>): Promise<number> {
  const pool = new Pool({ connectionString: c.databaseUrl, max: 1, options: '-c search_path=gateway' });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

export const OPERATOR_KEY_COMMANDS: Commands = {
  'operator-key create': async (c) => {
    const environment = c.flags.environment as KeyEnvironment;
    if (!KEY_ENVIRONMENTS.includes(environment)) throw new Error(`--environment must be one of ${KEY_ENVIRONMENTS.join(', ')}`);
    const name = c.need('name');
    return onGatewaySchema(c, async (pool) => {
      const created = await new OperatorKeyCommands(pool).create(name, environment);
      console.log(JSON.stringify({ ...created, note: 'X-Admin-Key: the key is shown this once' }));
      return 0;
    });
  },
  'operator-key list': async (c) =>
    onGatewaySchema(c, async (pool) => {
      for (const key of await listOperatorKeys(pool)) console.log(JSON.stringify(key));
      return 0;
    }),
  'operator-key revoke': async (c) => {
    const key = c.need('key');
    return onGatewaySchema(c, async (pool) => {
      const revoked = await new OperatorKeyCommands(pool).revoke(key);
      console.log(revoked ? JSON.stringify(revoked) : 'no operator key with this id');
      return revoked ? 0 : 1;
    });
  },
};
