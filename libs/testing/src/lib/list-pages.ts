/** One page of a list: its items and the cursor to the next page (null on the last). */
export interface ListPage<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * Follows next_cursor from the first page to the last: every item in the order the pages gave them, and
 * how many pages it took. Fails past `maxPages` (a cursor that never ends) and on an empty page that
 * still points further (a page must hold something unless it is the last).
 */
export async function allPages<T>(
  page: (cursor: string | undefined) => Promise<ListPage<T>>,
  maxPages = 1000,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= maxPages; pages++) {
    const { items: got, next_cursor } = await page(cursor);
    items.push(...got);
    if (next_cursor === null) return { items, pages };
    if (got.length === 0) throw new Error(`page ${pages} is empty but has a next_cursor`);
    cursor = next_cursor;
  }
  throw new Error(`more than ${maxPages} pages`);
}

/** A list use case's reply: its items under `K` with the next cursor, or a refusal. */
type ListReply<K extends string, T> =
  { ok: true; data: { [key in K]: T[] } & { next_cursor: string | null } } | { ok: false; error: { message: string } };

/** allPages over a list use case: `execute(cursor)` answers each page; a refusal fails the test. */
export function allReplyPages<K extends string, T>(
  items: K,
  execute: (cursor: string | undefined) => Promise<ListReply<K, T>>,
): Promise<{ items: T[]; pages: number }> {
  return allPages(async (cursor) => {
    const reply = await execute(cursor);
    if (!reply.ok) throw new Error(`refused: ${reply.error.message}`);
    return { items: reply.data[items], next_cursor: reply.data.next_cursor };
  });
}
