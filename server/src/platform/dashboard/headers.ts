// Security headers of the dashboard page. It is one static page whose scripts talk to the same
// origin's /v1 API with the session cookie; it is never framed (clickjacking of signed-in owners).

export interface DashboardHeaderOptions {
  /** Extra origins the page may call or load media from (MEDIA_PUBLIC_URL, the mailbox's URL). */
  connectOrigins: readonly string[];
  mediaOrigins: readonly string[];
}

export function dashboardCsp({ connectOrigins, mediaOrigins }: DashboardHeaderOptions): string {
  const media = ["'self'", 'blob:', ...new Set(mediaOrigins)].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${[...new Set(mediaOrigins)].join(' ')}`.trim(),
    `media-src ${media}`,
    ["connect-src 'self'", ...new Set(connectOrigins)].join(' '),
    "font-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function dashboardPageHeaders(options: DashboardHeaderOptions): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': dashboardCsp(options),
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex, nofollow',
  };
}
