/**
 * The counterparties a bench's stack talks to besides the chains, started in the bench's process as `npm start`
 * and `npm test` start theirs: the DICT test server pix-keys registers keys through (libs/dict-test-server) and the owner
 * notifier's sinks, SMTP and Twilio's Messages API (scripts/notify). On ports the OS picks, so that a bench runs
 * beside any other stack; its DICT certificates in `.cache/dict/bench-<name>/`.
 */
import { DEV_DICT_TIMINGS, startStackDict } from '@partner/dict-test-server';
import { DEV_SINKS, sinkAppEnv, startSinks } from '@partner/notification-sinks';

export interface BenchCounterparties {
  /** The apps' settings for them (pix-keys' DICT_*, the customers service's SMTP_URL and TWILIO_*). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startBenchCounterparties(name: string): Promise<BenchCounterparties> {
  const dict = await startStackDict({ name: `bench-${name}`, port: 0, timings: DEV_DICT_TIMINGS });
  const sinks = await startSinks({ ...DEV_SINKS, smtpPort: 0, httpPort: 0 }).catch(async (error: unknown) => {
    await dict.server.close();
    throw error;
  });
  return {
    env: { ...dict.env, ...sinkAppEnv(sinks, DEV_SINKS) },
    async stop() {
      await Promise.allSettled([dict.server.close(), sinks.stop()]);
    },
  };
}
