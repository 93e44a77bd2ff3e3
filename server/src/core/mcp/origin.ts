const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Against DNS rebinding (a web page whose host name was re-pointed at this server): a browser
 * always sends `Origin`, so a request with one is accepted only from this server's own host (the
 * request's Host, or PUBLIC_URL's) or from loopback. Non-browser clients send none.
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
  if (LOOPBACK.has(url.hostname)) return true;
  if (host && url.host === host) return true;
  try {
    return url.host === new URL(publicUrl).host;
  } catch {
    return false;
  }
}
