import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import { sha256Hex } from '../crypto/hashing.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { DB } from '../db/schema.ts';
import type { AnyFastify } from './any-fastify.ts';
import { AppError } from './errors.ts';
import { hookWhen } from './hooks.ts';
import { idempotencyKeyRepository } from './idempotency-repository.ts';
import { isWrite } from './rate-limit.ts';

const HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 255;
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A "running" record older than this belongs to a request that died; the key may be taken over. */
const ABANDONED_AFTER_MS = 60 * 1000;
const REPLAYED_HEADERS = ['content-type', 'location'];

interface HeldKey {
  scope: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: HeldKey | null;
  }
}

/** JSON with sorted keys, so the same parameters in another order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Buffer)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function fingerprint(request: FastifyRequest): string {
  return sha256Hex(`${request.method} ${request.url}\n${canonical(request.body)}`);
}

/**
 * The spec's six idempotency rules for POST, PUT, PATCH and DELETE, scoped to the credential and
 * stored in the database so every instance sees them. Claiming a key is one INSERT … ON CONFLICT
 * DO NOTHING, so of two racing requests exactly one runs.
 */
export function installIdempotency(
  app: AnyFastify,
  deps: { db: Kysely<DB>; clock: Clock; secretBox: SecretBox },
): void {
  const { db, clock, secretBox } = deps;
  app.decorateRequest('idempotency', null);

  async function claim(scope: string, key: string, hash: string): Promise<boolean> {
    const now = clock.now();
    return idempotencyKeyRepository.claim(
      db,
      { scope, key },
      { requestHash: hash, now, expiresAt: new Date(now.getTime() + RETENTION_MS) },
    );
  }

  async function replayOrRefuse(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: string,
    key: string,
    hash: string,
  ) {
    const now = clock.now();
    const row = await idempotencyKeyRepository.find(db, { scope, key });
    if (!row || row.expires_at <= now) {
      // Expired (or released meanwhile): forget it and try to claim afresh.
      await idempotencyKeyRepository.deleteIfExpired(db, { scope, key }, now);
      if (await claim(scope, key, hash)) {
        request.idempotency = { scope, key };
        return;
      }
      throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress.', {
        param: 'Idempotency-Key',
        headers: { 'Retry-After': '1' },
      });
    }
    if (row.request_hash !== hash) {
      throw new AppError(
        'idempotency_key_reuse',
        'This Idempotency-Key was used with a different request. Use a new key for a new request.',
        { param: 'Idempotency-Key' },
      );
    }
    if (row.state === 'running') {
      if (now.getTime() - row.locked_at.getTime() > ABANDONED_AFTER_MS) {
        const taken = await idempotencyKeyRepository.takeOver(db, { scope, key }, row.locked_at, now);
        if (taken) {
          request.idempotency = { scope, key };
          return;
        }
      }
      throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress.', {
        param: 'Idempotency-Key',
        headers: { 'Retry-After': '1' },
      });
    }
    for (const [name, value] of Object.entries(row.response_headers ?? {})) reply.header(name, value);
    reply.header('Idempotency-Replayed', 'true');
    // Stored responses can hold secrets shown once (new API keys, signing secrets): sealed at rest.
    return reply
      .status(row.response_status ?? 200)
      .send(row.response_body ? secretBox.open(row.response_body) : '');
  }

  const sendsKey = (request: FastifyRequest) =>
    isWrite(request.method) && request.headers[HEADER] !== undefined;
  app.addHook(
    'preHandler',
    hookWhen(sendsKey, async (request, reply) => {
      const key = request.headers[HEADER];
      if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
        throw new AppError(
          'invalid_idempotency_key',
          `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`,
          {
            param: 'Idempotency-Key',
          },
        );
      }
      const scope = request.principal.subject;
      const hash = fingerprint(request);
      if (await claim(scope, key, hash)) {
        request.idempotency = { scope, key };
        return;
      }
      return replayOrRefuse(request, reply, scope, key, hash);
    }),
  );

  // A callback hook for the same reason as hookWhen's: nearly every response holds no key.
  app.addHook('onSend', (request, reply, payload, done) => {
    const held = request.idempotency;
    if (!held) return done(null, payload);
    request.idempotency = null;
    settle(reply, payload, held).then(() => done(null, payload), done);
  });

  async function settle(reply: FastifyReply, payload: unknown, held: HeldKey) {
    if (reply.statusCode >= 200 && reply.statusCode < 300) {
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await idempotencyKeyRepository.markDone(db, held, {
        status: reply.statusCode,
        sealedBody: secretBox.seal(
          typeof payload === 'string' ? payload : payload === null ? '' : String(payload),
        ),
        headers,
      });
    } else {
      // A failed first attempt releases the key so the client may retry with it.
      await idempotencyKeyRepository.release(db, held);
    }
  }
}
