import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type IRateLimiterOptions,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { RedisCircuit } from '../redis-circuit.ts';
import type { AnyFastify } from './any-fastify.ts';
import { AppError } from './errors.ts';
import { hookWhen } from './hooks.ts';

export interface RateLimitRule {
  name: string;
  points: number;
  durationSeconds: number;
  /** Applies only to POST, PUT, PATCH and DELETE. */
  writesOnly?: boolean;
}

export interface RateLimitOptions {
  rules: RateLimitRule[];
  /** Shared budgets across instances when set (and reachable); in-process memory otherwise. */
  redis: RedisCircuit | null;
  keyPrefix: string;
  /** Who a budget belongs to. */
  keyOf: (request: FastifyRequest) => string;
  /** Which requests spend these budgets (default: every request of the scope). */
  appliesTo?: (request: FastifyRequest) => boolean;
  /**
   * Requests among those that are shown the budget's RateLimit-* headers without spending it or
   * being refused: CORS preflights, which a browser sends on its own before the request it precedes.
   */
  isFree?: (request: FastifyRequest) => boolean;
  /** A fixed Retry-After (the mailbox promises 60); otherwise the seconds until the window resets. */
  fixedRetryAfterSeconds?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Spends `units` more of the caller's budgets after the fact, without refusing this request
     * (a large answer weighs more than one request: see whole-list.ts). Absent when no budget applies.
     */
    chargeRateLimit?: (units: number) => Promise<void>;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isWrite = (method: string) => WRITE_METHODS.has(method);

/** What the hook needs of a limiter: spend a point, look without spending, or charge units after the fact. */
interface Budget {
  consume(key: string): Promise<RateLimiterRes>;
  get(key: string): Promise<RateLimiterRes | null>;
  penalty(key: string, units: number): Promise<RateLimiterRes>;
}

/**
 * Redis-shared budgets while Redis answers; this process's memory while the circuit is open, at
 * once and without waiting for a command to time out. During an outage each instance therefore
 * counts its own share: the limit is per instance until Redis is back.
 */
function limiterFor(rule: RateLimitRule, options: RateLimitOptions): Budget {
  const base: IRateLimiterOptions = {
    points: rule.points,
    duration: rule.durationSeconds,
    keyPrefix: `${options.keyPrefix}:${rule.name}`,
  };
  const memory = new RateLimiterMemory(base);
  const circuit = options.redis;
  if (!circuit) return memory;
  const shared = new RateLimiterRedis({ ...base, storeClient: circuit.client });
  // A refusal (no budget left) is an answer, not a Redis failure.
  const isAnswer = (rejection: unknown) => rejection instanceof RateLimiterRes;
  return {
    consume: (key) =>
      circuit.run(
        () => shared.consume(key),
        () => memory.consume(key),
        isAnswer,
      ),
    get: (key) =>
      circuit.run(
        () => shared.get(key),
        () => memory.get(key),
        isAnswer,
      ),
    penalty: (key, units) =>
      circuit.run(
        () => shared.penalty(key, units),
        () => memory.penalty(key, units),
        isAnswer,
      ),
  };
}

/** The budget as it stands, spending nothing (an untouched budget is full). */
async function peek(limiter: Budget, rule: RateLimitRule, key: string): Promise<RateLimiterRes> {
  return (await limiter.get(key)) ?? new RateLimiterRes(rule.points, rule.durationSeconds * 1000, 0);
}

function setHeaders(reply: FastifyReply, rule: RateLimitRule, result: RateLimiterRes) {
  reply.header('RateLimit-Limit', rule.points);
  reply.header('RateLimit-Remaining', Math.max(0, result.remainingPoints));
  reply.header('RateLimit-Reset', Math.ceil(result.msBeforeNext / 1000));
}

/**
 * Per-credential budgets (e.g. 600 requests and 120 writes a minute). Every response carries the
 * RateLimit-* headers of the tightest budget that applies; an exhausted one answers 429 with Retry-After.
 * Must be installed after the caller is identified so the budget's owner is known.
 */
export function installRateLimits(app: AnyFastify, options: RateLimitOptions): void {
  const limiters = options.rules.map((rule) => ({ rule, limiter: limiterFor(rule, options) }));
  const readLimiters = limiters.filter(({ rule }) => !rule.writesOnly);
  const appliesTo = options.appliesTo ?? (() => true);
  app.addHook(
    'onRequest',
    hookWhen(appliesTo, async (request, reply) => {
      const key = options.keyOf(request);
      const applicable = isWrite(request.method) ? limiters : readLimiters;
      const free = options.isFree?.(request) ?? false;
      let tightest: { rule: RateLimitRule; result: RateLimiterRes } | null = null;
      for (const { rule, limiter } of applicable) {
        let result: RateLimiterRes;
        try {
          result = free ? await peek(limiter, rule, key) : await limiter.consume(key);
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          setHeaders(reply, rule, rejection);
          const retryAfter =
            options.fixedRetryAfterSeconds ?? Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
          throw new AppError(
            'rate_limited',
            `Too many requests: the limit is ${rule.points} per ${rule.durationSeconds} s.`,
            {
              headers: { 'Retry-After': String(retryAfter) },
            },
          );
        }
        if (!tightest || result.remainingPoints < tightest.result.remainingPoints)
          tightest = { rule, result };
      }
      if (tightest) setHeaders(reply, tightest.rule, tightest.result);
      if (!free) {
        request.chargeRateLimit = async (units) => {
          for (const { limiter } of applicable) await limiter.penalty(key, units).catch(() => {});
        };
      }
    }),
  );
}
