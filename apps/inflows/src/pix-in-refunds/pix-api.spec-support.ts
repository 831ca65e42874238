import { randomUUID } from 'node:crypto';
import { loadConfig } from '@partner/config';
import { PixApiTestServer, startPixApiTestServer } from '@partner/pix-api-test-server';
import { InflowsConfig } from '../config/inflows.config';

/**
 * A Pix API test server (tools/pix-api-test-server: seeded Pix, a devolução settled after 50 ms) and the inflows
 * config that points the production adapter at it, with short retries and polls so a spec's rounds run fast.
 */
export async function pixApiForSpec(clientId: string): Promise<{ server: PixApiTestServer; config: InflowsConfig }> {
  const clientSecret = randomUUID();
  const server = await startPixApiTestServer({ clientId, clientSecret, pix: 'seeded', settleAfterMs: 50 });
  const config = loadConfig(InflowsConfig, {
    ...process.env,
    PIX_API_URL: server.url,
    PIX_API_CLIENT_ID: clientId,
    PIX_API_CLIENT_SECRET: clientSecret,
    PIX_API_RETRY_BASE_MS: '10',
    PIX_API_RETRY_MAX_MS: '20',
    PIX_API_POLL_MS: '10',
    PIX_API_MAX_ATTEMPTS: '3',
  });
  return { server, config };
}
