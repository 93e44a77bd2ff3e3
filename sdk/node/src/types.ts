/**
 * Type helpers that turn an operation of the generated `operations` types (openapi-typescript) into
 * a method's params object and result.
 */

/** Per-call options, beside the params of the operation. */
export interface RequestOptions {
  /** Aborts the call (and any retry still waiting). */
  signal?: AbortSignal;
  /** Milliseconds for each attempt; the client's `timeout` otherwise. */
  timeout?: number;
  /** Retries after the first attempt; the client's `maxRetries` otherwise. */
  maxRetries?: number;
  /** The key sent on every attempt of a write; one is generated per call otherwise. */
  idempotencyKey?: string;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

type Simplify<T> = { [K in keyof T]: T[K] };
type NonNever<T> = [T] extends [never] ? unknown : T extends undefined ? unknown : T;

type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNever<Q> : unknown;
type HeadersOf<Op> = Op extends { parameters: { header?: infer H } } ? NonNever<H> : unknown;
type BodyOf<Op> = Op extends { requestBody?: { content: infer C } }
  ? C extends { 'application/json': infer B }
    ? NonNever<B>
    : C extends { 'multipart/form-data': infer M }
      ? { [K in keyof M]: M[K] | Blob }
      : C extends Record<string, unknown>
        ? { body: Blob | ArrayBuffer | Uint8Array | string; contentType?: string }
        : unknown
  : unknown;

/** The method's params: the body fields and the query (and header) parameters of the operation. */
export type Params<Op> = Simplify<BodyOf<Op> & QueryOf<Op> & HeadersOf<Op>>;

type SuccessStatus = 200 | 201 | 202;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;

/** The parsed JSON of the operation's success response (`undefined` for a 204). */
export type Result<Op> = Op extends { responses: infer R }
  ? [Extract<keyof R, SuccessStatus>] extends [never]
    ? undefined
    : JsonOf<R[Extract<keyof R, SuccessStatus>]>
  : unknown;

/** An item of a platform list (`data` of the page; some lists answer a bare array when not paginated). */
export type CursorItem<Page> = Page extends { data?: Array<infer I> }
  ? I
  : Page extends Array<infer I>
    ? I
    : never;
/**
 * An item of a list kept at a dotted path of the page: a mailbox list's own key (e.g. `inboxes`),
 * or a list inside the page's `data` object (e.g. `data.memories`).
 */
export type ItemAt<Page, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Page extends { [P in Head]?: infer Inner }
    ? ItemAt<NonNullable<Inner>, Rest>
    : never
  : Page extends { [P in Path]?: Array<infer I> }
    ? I
    : never;
