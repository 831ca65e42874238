/**
 * `notifications sent`: what the owner notifier's local sinks received (tools/notification-sinks, which `npm start`
 * runs; `npm run notify -- list` runs this too). Development only: a deployment sends through its own SMTP server
 * and Twilio account, and has no sinks. Plain HTTP reads of the sinks' listings, so the CLI never loads the sinks
 * themselves (a development dependency the apps' image lacks).
 */

/** The sinks' listing URL: NOTIFY_SINK_URL, else npm start's (NOTIFY_SINK_PORT, default 8025: DEV_SINKS). */
export function sinkUrlOf(env: NodeJS.ProcessEnv): string {
  return env.NOTIFY_SINK_URL ?? `http://127.0.0.1:${env.NOTIFY_SINK_PORT ?? 8025}`;
}

async function read<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000) }).catch((error: Error) => {
    throw new Error(`no sink answers at ${url} (${error.message}): is the stack running? (npm start starts the sinks)`);
  });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** Prints what the sinks at `sinkUrl` received, one JSON line per message (oldest first), then a count; 0. */
export async function listReceived(sinkUrl: string): Promise<number> {
  const { smtp_sink, emails } = await read<{ smtp_sink: string | null; emails: object[] }>(`${sinkUrl}/emails`);
  const { sms } = await read<{ sms: object[] }>(`${sinkUrl}/sms`);
  for (const email of emails) console.log(JSON.stringify({ kind: 'email', ...email }));
  for (const message of sms) console.log(JSON.stringify({ kind: 'sms', ...message }));
  const smtpNote = smtp_sink ? `at ${smtp_sink}` : 'not started: SMTP_URL named another server, or another took its port';
  console.log(`${emails.length} e-mails (SMTP sink ${smtpNote}), ${sms.length} SMS (Twilio sink at ${sinkUrl})`);
  return 0;
}
