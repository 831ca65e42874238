/**
 * The DICT test server as the local stacks run it (`npm start`, `npm test`, the chaos run, the DICT
 * integration specs): started in the calling process (it stops with it), its development certificates in
 * `.cache/dict/<name>/`, and the settings that point pix-keys at it.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDictPki, DictPki } from './dict-pki';
import { DictTestServer, HeldKey, startDictTestServer } from './dict-test-server';

/** The repository's root: the development certificates go to its .cache/ (git ignores it). */
const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * The operator's ISPB on the local stacks: the participant the test server trusts, pix-keys' DICT_ISPB. It is
 * inflows' OPERATOR_ISPB default (the ISPB of the accounts it opens), and must stay equal to it: pix-keys
 * refuses to send DICT an account of another ISPB (dict_rejected).
 */
export const STACK_OPERATOR_ISPB = '99999999';

/** The CPF the stacks' DICT holds at another institution (ISPB 00000000): its registration is refused, `key_held_elsewhere`. */
export const HELD_ELSEWHERE_CPF = '00000000191';
export const HELD_ELSEWHERE_ISPB = '00000000';
export const DEFAULT_HELD_ELSEWHERE: HeldKey[] = [{ key: HELD_ELSEWHERE_CPF, participant: HELD_ELSEWHERE_ISPB }];

/** The CPF whose deletion the stacks' DICT answers after 2 s: a deletion that stays in flight (`deleting`) long enough to be seen. */
export const SLOW_DELETE_CPF = '00000000272';

/** `DICT_TEST_HELD_ELSEWHERE=<cpf>@<ispb>,...`: more keys the test server holds at other institutions (beside the default one). */
export function heldElsewhereFrom(value = process.env.DICT_TEST_HELD_ELSEWHERE ?? ''): HeldKey[] {
  const more = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [key, participant] = item.split('@');
      if (!/^\d{11}$/.test(key ?? '') || !/^\d{8}$/.test(participant ?? '')) {
        throw new Error(`DICT_TEST_HELD_ELSEWHERE: ${item} is not <cpf of 11 digits>@<ISPB of 8 digits>`);
      }
      return { key, participant };
    });
  return [...DEFAULT_HELD_ELSEWHERE, ...more];
}

/** How quickly pix-keys works its DICT queue and reconciles: npm start's pace, and the tests' (quick retries, frequent read backs). */
export interface DictTimings {
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  reconcileIntervalMs: number;
  reconcileEveryMs: number;
  timeoutMs: number;
  /** How often DICT's MED cases are listed (DICT_MED_LIST_MS): quicker than production's, so a case a spec opens arrives soon. */
  medListMs: number;
}
export const DEV_DICT_TIMINGS: DictTimings = {
  pollMs: 250,
  retryBaseMs: 1_000,
  retryMaxMs: 30_000,
  reconcileIntervalMs: 60_000,
  reconcileEveryMs: 600_000,
  timeoutMs: 5_000,
  medListMs: 5_000,
};
export const TEST_DICT_TIMINGS: DictTimings = {
  pollMs: 100,
  retryBaseMs: 200,
  retryMaxMs: 2_000,
  reconcileIntervalMs: 2_000,
  reconcileEveryMs: 5_000,
  timeoutMs: 3_000,
  medListMs: 1_500,
};

/** pix-keys' settings for the DICT at `url` with the development certificates of `pki`. */
export function dictAppEnv(url: string, pki: DictPki, timings: DictTimings, ispb = STACK_OPERATOR_ISPB): Record<string, string> {
  return {
    DICT_URL: url,
    DICT_ISPB: ispb,
    DICT_CLIENT_CERT_FILE: pki.clientCertFile,
    DICT_CLIENT_KEY_FILE: pki.clientKeyFile,
    DICT_CA_FILE: pki.caFile,
    DICT_SIGNING_CERT_FILE: pki.signingCertFile,
    DICT_SIGNING_KEY_FILE: pki.signingKeyFile,
    DICT_RESPONSE_SIGNING_CERT_FILE: pki.dictSigningCertFile,
    DICT_TIMEOUT_MS: String(timings.timeoutMs),
    DICT_POLL_MS: String(timings.pollMs),
    DICT_RETRY_BASE_MS: String(timings.retryBaseMs),
    DICT_RETRY_MAX_MS: String(timings.retryMaxMs),
    DICT_RECONCILE_INTERVAL_MS: String(timings.reconcileIntervalMs),
    DICT_RECONCILE_EVERY_MS: String(timings.reconcileEveryMs),
    DICT_MED_LIST_MS: String(timings.medListMs),
  };
}

export interface StackDict {
  server: DictTestServer;
  pki: DictPki;
  /** pix-keys' settings (also what the e2e suites read to call the test server themselves). */
  env: Record<string, string>;
}

/**
 * Starts the DICT test server for a stack: its certificates in `.cache/dict/<name>/` (made once), on
 * `port`, with `heldElsewhere` preloaded; each request a line of `logFile` when given.
 */
export async function startStackDict(options: {
  name: string;
  port: number;
  timings: DictTimings;
  logFile?: string;
  heldElsewhere?: HeldKey[];
}): Promise<StackDict> {
  const pki = await ensureDictPki(join(REPO_ROOT, '.cache', 'dict', options.name));
  const server = await startDictTestServer({
    port: options.port,
    pki,
    participant: STACK_OPERATOR_ISPB,
    heldElsewhere: options.heldElsewhere ?? heldElsewhereFrom(),
    slowDeletes: [SLOW_DELETE_CPF],
    slowDeleteMs: 2_000,
    log: options.logFile ? (line) => appendFileSync(options.logFile as string, `${new Date().toISOString()} ${line}\n`) : undefined,
  });
  return { server, pki, env: dictAppEnv(server.url, pki, options.timings) };
}
