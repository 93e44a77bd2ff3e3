import type { AnyFastify } from './any-fastify.ts';

/** Once per process, however many apps it builds: the operator needs to hear it, not a log full of it. */
let warned = false;

/**
 * With TRUST_PROXY_HOPS at 0, X-Forwarded-For is ignored (anyone can forge it), so a proxy in
 * front makes every client share the proxy's address and its per-address rate-limit budget. The
 * header arriving at all is the sign of such a proxy: say so, once, when it first does.
 */
export function warnOfIgnoredForwardedFor(app: AnyFastify): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (warned || request.headers['x-forwarded-for'] === undefined) return done();
    warned = true;
    request.log.warn(
      'X-Forwarded-For received while TRUST_PROXY_HOPS is 0: the header is ignored, so clients behind ' +
        'a reverse proxy share its address and per-address rate-limit budgets; set TRUST_PROXY_HOPS ' +
        'to the number of proxies in front of the server.',
    );
    done();
  });
}
