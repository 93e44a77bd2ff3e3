import type { Kysely } from 'kysely';
import type { Static, TSchema } from 'typebox';
import type { DB } from '../db/schema.ts';

/** How a failed run is retried: `maxAttempts` runs in all, waiting `backoffMs · 2^(n-1)` (capped) after the n-th. */
export interface RetryPolicy {
  maxAttempts: number;
  backoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 8,
  backoffMs: 5_000,
  maxBackoffMs: 30 * 60_000,
});
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface JobLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface JobContext {
  jobId: string;
  /** 1 on the first run. */
  attempt: number;
  /** Aborted when the run passes its timeout or the worker stops. */
  signal: AbortSignal;
  logger: JobLogger;
  /**
   * Marks the job succeeded inside the handler's own transaction, so its effects (events,
   * rows) and its completion commit together: a crash after that commit never runs it again,
   * a crash before it leaves neither. Throws (rolling the transaction back) when this run no
   * longer holds the job, i.e. its lease passed and another runner took it.
   */
  completeWithin(tx: Kysely<DB>): Promise<void>;
}

/**
 * What a handler may return instead of nothing (done): run again later without counting an
 * attempt, for work that waits on something outside (an upload that has not arrived yet).
 */
export interface JobReschedule {
  rescheduleAt: Date;
  reason?: string;
}

export interface JobDefinition<P = unknown> {
  name: string;
  /** TypeBox schema of the payload: checked on enqueue and again before each run. */
  payload: TSchema;
  retry: RetryPolicy;
  timeoutMs: number;
  handler(payload: P, context: JobContext): Promise<void | JobReschedule>;
}

export interface JobOptions<T extends TSchema> {
  name: string;
  payload: T;
  retry?: Partial<RetryPolicy>;
  timeoutMs?: number;
  handler(payload: Static<T>, context: JobContext): Promise<void | JobReschedule>;
}

/** Declares a job (DESIGN convention 6): name, payload schema, retry policy, timeout and handler. */
export function defineJob<T extends TSchema>(options: JobOptions<T>): JobDefinition<Static<T>> {
  if (!/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/.test(options.name)) {
    throw new Error(`job name ${options.name} must be dotted lower-case words, e.g. meeting.finalize`);
  }
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  if (!Number.isInteger(retry.maxAttempts) || retry.maxAttempts < 1) {
    throw new Error(`job ${options.name}: maxAttempts must be a positive integer`);
  }
  return {
    name: options.name,
    payload: options.payload,
    retry,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    handler: options.handler,
  };
}

/** Delay before the run after the `attempt`-th failed one. */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** Math.min(exponent, 30));
}

/** The jobs one process can run, by name. Names must be unique. */
export class JobCatalog {
  readonly #definitions = new Map<string, JobDefinition<any>>();

  constructor(definitions: Iterable<JobDefinition<any>> = []) {
    for (const definition of definitions) this.add(definition);
  }

  add(definition: JobDefinition<any>): void {
    if (this.#definitions.has(definition.name)) throw new Error(`job ${definition.name} is declared twice`);
    this.#definitions.set(definition.name, definition);
  }

  get(name: string): JobDefinition<any> | undefined {
    return this.#definitions.get(name);
  }

  get names(): string[] {
    return [...this.#definitions.keys()];
  }

  get size(): number {
    return this.#definitions.size;
  }
}
