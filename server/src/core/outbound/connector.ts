import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import type { OutboundPolicy } from './address-policy.ts';
import { OutboundError } from './errors.ts';
import { type LookupFn, resolveAllowed } from './vet.ts';

/**
 * An undici connector that pins every new connection to an address it has just checked.
 *
 * The hostname is resolved here, once per connection, every address is vetted, and the socket
 * is opened to the vetted IP itself (TLS still verifies and sends SNI for the original name).
 * Nothing resolves the name again between the check and the connect, so DNS rebinding cannot
 * substitute a private address. IP-literal hosts are checked the same way without DNS.
 */
export function createPinnedConnector(
  policy: OutboundPolicy,
  lookup: LookupFn,
  connectTimeoutMs: number,
): buildConnector.connector {
  const connectSocket = buildConnector({ timeout: connectTimeoutMs });

  return (options, callback) => {
    let pending = true;
    const fail = (err: Error) => {
      if (!pending) return;
      pending = false;
      clearTimeout(dnsTimer);
      callback(err, null);
    };
    // The socket-level timeout only starts after DNS, so bound the lookup separately.
    const dnsTimer = setTimeout(
      () => fail(new OutboundError('timeout', `DNS lookup of ${options.hostname} timed out`)),
      connectTimeoutMs,
    );

    resolveAllowed(options.hostname, policy, lookup).then((addresses) => {
      if (!pending) return;
      pending = false;
      clearTimeout(dnsTimer);
      const servername = options.servername ?? (isIP(options.hostname) ? undefined : options.hostname);
      connectSocket({ ...options, hostname: addresses[0], servername }, (err, socket) => {
        if (err) callback(connectError(err, options.hostname, connectTimeoutMs), null);
        else callback(null, socket);
      });
    }, fail);
  };
}

function connectError(err: Error, host: string, connectTimeoutMs: number): OutboundError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new OutboundError('timeout', `connecting to ${host} timed out after ${connectTimeoutMs} ms`, {
      cause: err,
    });
  }
  return new OutboundError('connect_failed', `could not connect to ${host}: ${code ?? err.message}`, {
    cause: err,
  });
}
