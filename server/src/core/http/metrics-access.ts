import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * Who may read /metrics (it names routes, volumes and process internals). With METRICS_TOKEN set,
 * only a request carrying `Authorization: Bearer <token>`; without it, only a client on the same
 * machine: a loopback socket and no forwarding header (a reverse proxy on the same host connects
 * over loopback on behalf of anyone, so its requests are refused; set METRICS_TOKEN then).
 */
export function checkMetricsAccess(request: FastifyRequest, token: string | null): void {
  if (token) {
    const presented = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(presented, token)) {
      throw new AppError('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
    }
    return;
  }
  const forwarded =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (!isLoopback(request.socket.remoteAddress) || forwarded) {
    throw new AppError(
      'permission_denied',
      'GET /metrics answers only on this machine unless METRICS_TOKEN is set.',
    );
  }
}

/** Equal-length digests, so the comparison takes the same time whatever the token's length. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
