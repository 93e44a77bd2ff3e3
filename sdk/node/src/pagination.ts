import { UnderstudyError } from './errors.js';
import type { OperationSpec } from './operation.js';

type Params = Record<string, unknown>;
type FetchPage = (params: Params) => Promise<unknown>;

/** Page size used when iterating and the caller gave none (the services' maximum). */
const ITERATION_LIMIT = 100;

/**
 * What a list method returns: await it for one page (exactly as asked), or iterate it with
 * `for await` to walk every item of every page, following the cursor.
 *
 * The platform pages with `limit` + `cursor` → `next_cursor`, and answers an unpaginated `{ data }`
 * when neither is sent, so iteration always sends `limit`. The mailbox pages with `limit` +
 * `page_token` → `next_page_token`; its event feed returns a token even on the last page (to
 * poll for newer events later), so iteration also stops at `has_more: false` or an empty page.
 */
export class PagePromise<Page, Item> implements Promise<Page>, AsyncIterable<Item> {
  #first: Promise<Page> | null = null;

  constructor(
    private readonly spec: OperationSpec,
    private readonly params: Params,
    private readonly fetchPage: FetchPage,
  ) {}

  // biome-ignore lint/suspicious/noThenProperty: a list call is awaited like any other call.
  then<A = Page, B = never>(
    onfulfilled?: ((value: Page) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.#first ??= this.fetchPage(this.params) as Promise<Page>;
    return this.#first.then(onfulfilled, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page> {
    return Promise.resolve(this as PromiseLike<Page>).finally(onfinally);
  }

  readonly [Symbol.toStringTag] = 'PagePromise';

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page | B> {
    return this.then(undefined, onrejected);
  }

  /** Every page, in order, from the one the params name. */
  async *pages(): AsyncGenerator<Page> {
    const { style, items } = this.spec.pagination!;
    const tokenParam = style === 'cursor' ? 'cursor' : 'page_token';
    const tokenField = style === 'cursor' ? 'next_cursor' : 'next_page_token';
    let params: Params = { ...this.params };
    if (params.limit === undefined) params.limit = ITERATION_LIMIT;
    const seen = new Set<string>();
    for (;;) {
      const page = (await this.fetchPage(params)) as Record<string, unknown>;
      yield page as Page;
      const token = page[tokenField];
      const got = itemsOf(page, items);
      if (typeof token !== 'string' || !token || page.has_more === false) return;
      if (!Array.isArray(got) || got.length === 0) return;
      // A server that hands back a cursor it gave before would be walked in a circle forever.
      if (seen.has(token)) {
        throw new UnderstudyError(`${this.spec.operationId}: the service repeated the page token ${token}`);
      }
      seen.add(token);
      params = { ...params, [tokenParam]: token };
      delete params.starting_after;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    const { items } = this.spec.pagination!;
    for await (const page of this.pages()) {
      const got = itemsOf(page, items);
      if (Array.isArray(got)) yield* got as Item[];
    }
  }

  /** Every item, collected (iterate instead for long lists). */
  async toArray(): Promise<Item[]> {
    const all: Item[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}

/** The value at a dotted path of a page (`data`, `data.memories`, `inboxes`). */
function itemsOf(page: unknown, path: string): unknown {
  let value = page;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | null)?.[key];
  return value;
}
