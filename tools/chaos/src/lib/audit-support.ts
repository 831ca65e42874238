import { Client } from 'pg';

/** An audit's failure lines: the first `max` kept (a broken run would otherwise print thousands). */
export function failureList(max = 50): { failures: string[]; fail: (line: string) => void } {
  const failures: string[] = [];
  return {
    failures,
    fail: (line) => {
      if (failures.length < max) failures.push(line);
    },
  };
}

/** `read` on a connection of its own to the stack's database, closed after. */
export async function onConnection<T>(databaseUrl: string, read: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return await read(db);
  } finally {
    await db.end();
  }
}
