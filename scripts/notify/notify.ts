/**
 * `npm run notify -- <command>`: the owner notifier's local sinks (tools/notification-sinks).
 *   list [--sink URL]    what a running stack's sinks received, oldest first, a JSON line each (= `npm run cli -- notifications sent`)
 *   clear [--sink URL]   forget them
 *   start [--host H]     the sinks alone on the dev ports until Ctrl-C (a customers service run by hand)
 * The sink's URL: --sink, else NOTIFY_SINK_URL, else npm start's.
 */
import { parseArgs } from 'node:util';
import { DEV_SINKS, sinkAppEnv, startSinks } from '@partner/notification-sinks';
import { runMain } from '../lib/main';

const DEFAULT_SINK_URL = `http://127.0.0.1:${DEV_SINKS.httpPort}`;
const USAGE = [
  'usage: npm run notify -- <command>',
  "  list [--sink URL]    what a running stack's sinks received, oldest first, a JSON line each",
  '  clear [--sink URL]   forget them',
  '  start [--host H]     the sinks alone on the dev ports until Ctrl-C',
  `The sink's URL: --sink, else NOTIFY_SINK_URL, else ${DEFAULT_SINK_URL} (npm start's).`,
].join('\n');

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      sink: { type: 'string', default: process.env.NOTIFY_SINK_URL ?? DEFAULT_SINK_URL },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command] = positionals;
  if (values.help || command === 'help') {
    console.log(USAGE);
    return 0;
  }
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
  console.error(USAGE);
  return 1;
}

runMain('notify', () => main(process.argv.slice(2)));
