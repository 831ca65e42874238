/**
 * The Pix API test server alone, in the foreground: the Compose path's `pix-api-test` container
 * (docker-compose.local-chains.yml). It listens on PIX_API_TEST_HOST:PIX_API_TEST_PORT and takes the client
 * PIX_API_CLIENT_ID with the secret PIX_API_CLIENT_SECRET (from PIX_API_CLIENT_SECRET_FILE), as inflows is given.
 */
import { readFileSync } from 'node:fs';
import { startPixApiTestServer } from './lib/pix-api-test-server';

async function main(): Promise<void> {
  const secretFile = process.env.PIX_API_CLIENT_SECRET_FILE;
  const clientSecret = secretFile ? readFileSync(secretFile, 'utf8').trim() : process.env.PIX_API_CLIENT_SECRET;
  if (!clientSecret) throw new Error('PIX_API_CLIENT_SECRET (or PIX_API_CLIENT_SECRET_FILE) must give the client secret inflows uses');
  const server = await startPixApiTestServer({
    port: Number(process.env.PIX_API_TEST_PORT ?? 8480),
    host: process.env.PIX_API_TEST_HOST ?? '127.0.0.1',
    clientId: process.env.PIX_API_CLIENT_ID ?? 'partner-service',
    clientSecret,
    pix: 'any',
    log: (line) => console.log(line),
  });
  console.log(`Pix API test server on ${server.url}`);
  const stop = () => void server.close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
