/**
 * `npm run notify -- <command>`: the owner notifier's local sinks (libs/notification-sinks).
 *
 *   list [--sink URL]    what the sinks of a running stack received: every e-mail (envelope, From, To, Subject,
 *                        text) and SMS (To, From, Body, its SID), oldest first, one JSON line each
 *                        (`npm run cli -- notifications sent` is the same)
 *   clear [--sink URL]   forget them
 *   start [--host H]     the sinks alone, on the development ports (SMTP 127.0.0.1:1025, HTTP 127.0.0.1:8025),
 *                        until Ctrl-C: for a customers service run by hand (--host 0.0.0.0 in a container)
 *
 * The sink's URL: --sink, else NOTIFY_SINK_URL, else http://127.0.0.1:8025 (`npm start`'s).
 */
import { parseArgs } from 'node:util';
import { DEV_SINKS, sinkAppEnv, startSinks } from '@partner/notification-sinks';

const DEFAULT_SINK_URL = `http://127.0.0.1:${DEV_SINKS.httpPort}`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      sink: { type: 'string', default: process.env.NOTIFY_SINK_URL ?? DEFAULT_SINK_URL },
      host: { type: 'string', default: '127.0.0.1' },
    },
  });
  const [command] = positionals;
  // The operator CLI's reader (its `notifications sent`), loaded only here: the chain image runs `start` and
  // carries the sinks alone (Dockerfile, chain stage).
  if (command === 'list') return (await import('../../apps/operator-cli/src/sandbox/notifications-sent.command')).listReceived(values.sink);
  if (command === 'clear') {
    const res = await fetch(`${values.sink}/messages`, { method: 'DELETE' });
    console.log(res.ok ? 'cleared' : `HTTP ${res.status}`);
    return res.ok ? 0 : 1;
  }
  if (command === 'start') {
    const sinks = await startSinks({ ...DEV_SINKS, host: values.host });
    const env = Object.entries(sinkAppEnv(sinks, DEV_SINKS)).map(([k, v]) => `${k}=${v}`);
    console.log(
      `notify sinks: SMTP ${sinks.smtpUrl}, Twilio Messages API and listings ${sinks.httpUrl}\n  customers settings: ${env.join(' ')}`,
    );
    const stop = () => void sinks.stop().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return new Promise<number>(() => undefined);
  }
  console.error('usage: npm run notify -- list|clear [--sink URL] | start [--host H]');
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
