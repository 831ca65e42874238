import { OperatorApiClient } from '@partner/api-client';

/**
 * `admin user backfill`: registers every user of the partner (of every partner when none is named) again, page by
 * page. Registration is idempotent: it changes nothing for a known user but hands the Pix keys service the user's
 * payment account, which users registered before accounts existed lack there (docs/operations/pix-and-dict.md, "Accounts and
 * BRL balances"). One line per partner; exit 1 when a registration failed (run it again: it resumes safely).
 */
export async function backfillUsers(admin: OperatorApiClient, only: string | undefined): Promise<number> {
  const partners = only ? [only] : [];
  if (!only)
    for await (const page of pages(
      (cursor) => admin.GET('/admin/v1/partners', { params: { query: { limit: 200, ...cursor } } }),
      'partners',
    ))
      partners.push(...page.partners.map((p) => p.id));
  let failed = 0;
  for (const partner_id of partners) {
    let registered = 0;
    const users = (cursor: { cursor?: string }) =>
      admin.GET('/admin/v1/partners/{partner_id}/users', { params: { path: { partner_id }, query: { limit: 200, ...cursor } } });
    for await (const page of pages(users, `the users of ${partner_id}`))
      for (const { document } of page.users) {
        const { response } = await admin.POST('/admin/v1/partners/{partner_id}/users', {
          params: { path: { partner_id } },
          body: { document },
        });
        if (response.ok) registered++;
        else failed++;
      }
    console.log(`${partner_id}: ${registered} users registered again`);
  }
  return failed === 0 ? 0 : 1;
}

/** Every page of a keyset listing, following next_cursor; a listing that fails stops the backfill. */
async function* pages<T extends { next_cursor?: string | null }>(
  list: (cursor: { cursor?: string }) => Promise<{ data?: T; error?: unknown }>,
  what: string,
): AsyncGenerator<T> {
  for (let cursor: string | undefined; ;) {
    const { data, error } = await list(cursor ? { cursor } : {});
    if (!data) throw new Error(`listing ${what} failed: ${JSON.stringify(error)}`);
    yield data;
    if (!data.next_cursor) return;
    cursor = data.next_cursor;
  }
}
