/** How one operation is called: the generated tables (src/generated/*-operations.ts) hold one per method. */
export interface OperationSpec {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** With the service's prefix (`/v1/…`, `/v0/…`) and `{name}` placeholders. */
  path: string;
  /** Placeholders of `path`, in order: the method's positional arguments. */
  pathParams: readonly string[];
  /** Names taken from the params object and sent in the query string. */
  query: readonly string[];
  /** Names taken from the params object and sent as headers. */
  headers: readonly string[];
  /** What the rest of the params object becomes: a JSON body, a multipart form, raw bytes, or nothing. */
  body: 'json' | 'multipart' | 'raw' | null;
  /**
   * Cursor lists: `limit` + `cursor` → `next_cursor` (platform), `limit` + `page_token` →
   * `next_page_token` (mailbox). `items` is the dotted path of the page's list (`data`,
   * `data.memories`, `inboxes`).
   */
  pagination: { style: 'cursor' | 'page_token'; items: string } | null;
}

export type OperationTable = Record<string, Record<string, OperationSpec>>;
