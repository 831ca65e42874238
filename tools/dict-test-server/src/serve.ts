/**
 * The DICT test server alone, in the foreground: the Compose path's `dict-test` container
 * (docker-compose.local-chains.yml). Its certificates are read from DICT_PKI_DIR, made by
 * `npm run compose:up` (scripts/docker/compose.ts) and mounted into pix-keys too; it listens on
 * DICT_TEST_HOST:DICT_TEST_PORT and holds the stacks' usual keys at other institutions (local-dict.ts).
 */
import { dictPkiFiles } from './lib/dict-pki';
import { heldElsewhereFrom, SLOW_DELETE_CPF, STACK_OPERATOR_ISPB } from './lib/local-dict';
import { startDictTestServer } from './lib/dict-test-server';

async function main(): Promise<void> {
  const dir = process.env.DICT_PKI_DIR;
  if (!dir) throw new Error('DICT_PKI_DIR must name the folder of the test DICT certificates');
  const server = await startDictTestServer({
    port: Number(process.env.DICT_TEST_PORT ?? 8443),
    host: process.env.DICT_TEST_HOST ?? '127.0.0.1',
    pki: dictPkiFiles(dir),
    participant: process.env.DICT_ISPB ?? STACK_OPERATOR_ISPB,
    heldElsewhere: heldElsewhereFrom(),
    slowDeletes: [SLOW_DELETE_CPF],
    slowDeleteMs: 2_000,
    log: (line) => console.log(line),
  });
  console.log(`DICT test server on ${server.url}`);
  const stop = () => void server.close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
