const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Against DNS rebinding (a web page whose host name was re-pointed at this server): a browser
 * always sends `Origin`, so a request with one is accepted only from PUBLIC_URL's host, or from a
 * loopback page talking to a loopback server (a local inspector). The request's own Host proves
 * nothing: under rebinding it is the attacker's name too. Non-browser clients send no Origin.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  host: string | undefined,
  publicUrl: string,
): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (LOOPBACK.has(url.hostname) && host !== undefined && LOOPBACK.has(hostnameOf(host))) return true;
  try {
    return url.host === new URL(publicUrl).host;
  } catch {
    return false;
  }
}

/** `name` of a Host header `name[:port]` (IPv6 literals keep their brackets). */
function hostnameOf(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
}
