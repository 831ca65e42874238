import type { CallOptions, HttpTransport } from './http-transport';
import type { ListQuery } from './sdk.types';

/** One page as the SDK sees it: its items and the cursor of the next (null: none). */
export interface PageOf<Item, Page> {
  items: Item[];
  next: string | null;
  page: Page;
}

/**
 * A list, read page by page as it is iterated (nothing is fetched before). `for await (const item of
 * list)` goes through every item; `for await (const page of list.pages())` through the raw pages. Paging
 * ends on a page with no `next_cursor` or with no items.
 */
export class Paginator<Item, Page> implements AsyncIterable<Item> {
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<PageOf<Item, Page>>) {}

  async *pages(): AsyncGenerator<Page, void, undefined> {
    for await (const { page } of this.walk()) yield page;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const { items } of this.walk()) yield* items;
  }

  private async *walk(): AsyncGenerator<PageOf<Item, Page>, void, undefined> {
    let cursor: string | undefined;
    for (;;) {
      const current = await this.fetchPage(cursor);
      yield current;
      if (current.next === null || current.items.length === 0) return;
      cursor = current.next;
    }
  }

  /** Every item, read to the end (mind the size of what you list). */
  async toArray(): Promise<Item[]> {
    const all: Item[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}

/**
 * A resource with a cursor-paged list at `path`, whose pages hold their items under `key` and a
 * `next_cursor` (null on the last page): `listPage` reads one page, `list` iterates them all.
 */
export abstract class ListedResource<
  Item,
  Query extends ListQuery & Record<string, string | number | boolean | undefined>,
  Key extends string,
> {
  protected constructor(
    protected readonly http: HttpTransport,
    protected readonly path: string,
    private readonly key: Key,
  ) {}

  /** One page, with the cursor of the next (null on the last). */
  listPage(query: Query = {} as Query, options?: CallOptions): Promise<{ [K in Key]: Item[] } & { next_cursor: string | null }> {
    return this.http.get(this.path, { ...query }, options);
  }

  /** Every item matching the query, page after page, fetched as the loop goes: `for await (const item of resource.list(query))`. */
  list(
    query: Omit<Query, 'cursor'> = {} as Omit<Query, 'cursor'>,
    options?: CallOptions,
  ): Paginator<Item, { [K in Key]: Item[] } & { next_cursor: string | null }> {
    return new Paginator(async (cursor) => {
      const page = await this.listPage({ ...query, cursor } as Query, options);
      return { items: page[this.key], next: page.next_cursor, page };
    });
  }
}
