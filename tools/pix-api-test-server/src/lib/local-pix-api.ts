import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { PixApiTestServer, startPixApiTestServer } from './pix-api-test-server';

/** The OAuth2 client the stacks' inflows service is, at their Pix API test server. */
export const STACK_PIX_API_CLIENT_ID = 'partner-service';

export interface StackPixApi {
  server: PixApiTestServer;
  /** What the inflows service needs to reach it (PIX_API_URL and its client credentials). */
  env: Record<string, string>;
}

/**
 * The Pix API test server as `npm start` and `npm test` run it, in their process: any well-formed end-to-end id
 * is a Pix it received (the stacks' Pix are simulated elsewhere), a fresh client secret per start, and
 * devoluções settled after `settleAfterMs`.
 */
export async function startStackPixApi(options: { port: number; settleAfterMs?: number; logFile?: string }): Promise<StackPixApi> {
  const clientSecret = randomBytes(24).toString('base64url');
  const server = await startPixApiTestServer({
    port: options.port,
    clientId: STACK_PIX_API_CLIENT_ID,
    clientSecret,
    pix: 'any',
    settleAfterMs: options.settleAfterMs ?? 1_000,
    log: options.logFile ? (line) => appendFileSync(options.logFile as string, `${new Date().toISOString()} ${line}\n`) : undefined,
  });
  return {
    server,
    env: { PIX_API_URL: server.url, PIX_API_CLIENT_ID: STACK_PIX_API_CLIENT_ID, PIX_API_CLIENT_SECRET: clientSecret },
  };
}
