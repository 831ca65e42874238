/**
 * `npm run cli -- dead-letters list [--all] | show ID | replay ID... | replay --all` (ADR 0015): the events
 * each service parked as unprocessable, straight in the database at DATABASE_URL (the `dead_letters` table
 * of every service schema that has one). A replay is asked for here and done by the service itself, which
 * runs the stored message (as parked, or as an operator corrected its `value`) through the same handler
 * a Kafka delivery runs; this command waits for the outcome and prints it.
 */
import { Pool } from 'pg';
import { pgSchemaOf, SERVICE_NAMES, ServiceName } from '@partner/contracts';
import { DeadLetter, DeadLetterStore } from '@partner/kafka';
import { Commands } from '../command-context';

interface ServiceLetters {
  service: ServiceName;
  store: DeadLetterStore;
}

/** Every service whose schema has a dead_letters table. */
async function storesOf(pool: Pool): Promise<ServiceLetters[]> {
  const { rows } = await pool.query<{ schema: string }>(
    `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'dead_letters'`,
  );
  const schemas = new Set(rows.map((r) => r.schema));
  return SERVICE_NAMES.filter((service) => schemas.has(pgSchemaOf(service))).map((service) => ({
    service,
    store: new DeadLetterStore(pool, `"${pgSchemaOf(service)}".dead_letters`),
  }));
}

/** One line per letter; the key and the value (which may hold personal data) only with `show`. */
function summary(service: ServiceName, l: DeadLetter) {
  const state = l.replayedAt ? 'replayed' : l.replayRequestedAt ? 'replay requested' : 'parked';
  return {
    service,
    id: l.id,
    topic: l.topic,
    partition: l.partition,
    offset: l.offset,
    state,
    reason: l.reason,
    parked_at: l.parkedAt,
    replay_attempts: l.replayAttempts,
  };
}

async function find(
  stores: ServiceLetters[],
  id: string,
): Promise<{ service: ServiceName; store: DeadLetterStore; letter: DeadLetter } | undefined> {
  for (const { service, store } of stores) {
    const letter = await store.get(id);
    if (letter) return { service, store, letter };
  }
  return undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const DEAD_LETTER_COMMANDS: Commands = Object.fromEntries(
  (['list', 'show', 'replay'] as const).map((sub) => [
    `dead-letters ${sub}`,
    (c) => deadLettersCommand(sub, c.args, { all: c.flags.all, databaseUrl: c.databaseUrl }),
  ]),
);

export async function deadLettersCommand(
  sub: 'list' | 'show' | 'replay',
  ids: string[],
  { all = false, waitMs = 30_000, databaseUrl }: { all?: boolean; waitMs?: number; databaseUrl: string },
): Promise<number> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const stores = await storesOf(pool);
    if (sub === 'list') {
      for (const { service, store } of stores)
        for (const letter of await store.list({ all })) console.log(JSON.stringify(summary(service, letter)));
      return 0;
    }
    const bad = ids.find((id) => !UUID.test(id));
    if (bad) throw new Error(`not a dead letter id: ${bad}`);
    if (sub === 'show' && ids.length === 1) {
      const found = await find(stores, ids[0]);
      if (!found) throw new Error(`no dead letter ${ids[0]}`);
      console.log(
        JSON.stringify(
          { ...summary(found.service, found.letter), key: found.letter.key, headers: found.letter.headers, value: found.letter.value },
          null,
          2,
        ),
      );
      return 0;
    }
    if (sub === 'replay' && (all || ids.length > 0)) return await replay(stores, all ? undefined : ids, waitMs);
    throw new Error('usage: dead-letters list [--all] | show ID | replay ID... | replay --all');
  } finally {
    await pool.end();
  }
}

/** Asks each owning service to replay, then waits until each letter is replayed or failed again. */
async function replay(stores: ServiceLetters[], ids: string[] | undefined, waitMs: number): Promise<number> {
  const asked: Array<{ service: ServiceName; store: DeadLetterStore; id: string }> = [];
  for (const { service, store } of stores) for (const id of await store.requestReplay(ids)) asked.push({ service, store, id });
  const missing = (ids ?? []).filter((id) => !asked.some((a) => a.id === id));
  for (const id of missing) console.log(JSON.stringify({ id, outcome: 'not parked (unknown id, or already replayed)' }));
  const deadline = Date.now() + waitMs;
  let failures = missing.length;
  for (const { service, store, id } of asked) {
    let letter = await store.get(id);
    while (letter && !letter.replayedAt && letter.replayRequestedAt && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      letter = await store.get(id);
    }
    const outcome = letter?.replayedAt
      ? 'replayed'
      : letter?.replayRequestedAt
        ? `still waiting after ${waitMs / 1000} s (is ${service} running?)`
        : `failed again: ${letter?.reason}`;
    if (!letter?.replayedAt) failures++;
    console.log(JSON.stringify({ service, id, topic: letter?.topic, outcome }));
  }
  return failures === 0 ? 0 : 1;
}
