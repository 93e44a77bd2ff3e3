// Security headers of the meeting-room pages. The room is a static page whose script talks to
// the same origin only (room API and WebSocket); it may be framed by any site when the scenario is
// public (embeddable), and it carries the room token in its address, so it never sends a referrer.

export type PageKind = 'room' | 'meeting' | 'message';

export interface PageHeaderOptions {
  kind: PageKind;
  /** `Host` of the request (already validated), for the explicit ws:/wss: sources. */
  host: string | null;
  /** The room may be framed by other sites (public scenario). */
  embeddable: boolean;
  /** Extra origins images may come from (PUBLIC_URL for avatars, MEDIA_PUBLIC_URL). */
  imageOrigins: readonly string[];
}

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The request's host when it is a plain `name[:port]` (anything else is left out of the CSP). */
export function safeHost(host: string | undefined): string | null {
  return host && host.length <= 255 && HOST.test(host) ? host : null;
}

/** `https://cdn.example.com/x/` → `https://cdn.example.com`; null for anything unusable. */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

export function frameAncestors(kind: PageKind, embeddable: boolean): string {
  // The message page (invalid link) may show inside a customer's frame: it reveals nothing.
  if (kind === 'message') return '*';
  if (kind === 'room') return embeddable ? '*' : "'self'";
  return "'self'";
}

export function contentSecurityPolicy(options: PageHeaderOptions): string {
  const images = ["'self'", 'data:', 'blob:', ...new Set(options.imageOrigins)].join(' ');
  // CSP3 lets 'self' cover ws:/wss: of the same host; older Safari does not, so name them.
  const sockets = options.host ? ` ws://${options.host} wss://${options.host}` : '';
  const directives =
    options.kind === 'message'
      ? ["default-src 'none'", "style-src 'self'", "img-src 'self'"]
      : [
          "default-src 'none'",
          "script-src 'self'",
          "style-src 'self'",
          `img-src ${images}`,
          "media-src 'self' blob: mediastream:",
          `connect-src 'self'${sockets}`,
          "font-src 'self'",
          "manifest-src 'self'",
          "form-action 'self'",
        ];
  directives.push(
    "base-uri 'none'",
    "object-src 'none'",
    `frame-ancestors ${frameAncestors(options.kind, options.embeddable)}`,
  );
  return directives.join('; ');
}

/** Every header of a page response (the HTML itself). */
export function pageHeaders(options: PageHeaderOptions): Record<string, string> {
  const media = options.kind === 'message' ? '()' : '(self)';
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': contentSecurityPolicy(options),
    // The address holds the room token: never pass it on to another site.
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Permissions-Policy': `camera=${media}, microphone=${media}, autoplay=${media}, display-capture=(), geolocation=(), payment=(), usb=()`,
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex, nofollow',
  };
}
