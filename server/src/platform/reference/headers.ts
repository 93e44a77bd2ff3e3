// Security headers of the reference pages. Everything they load comes from this server: the site's
// stylesheet and scripts, Swagger UI's bundle (from node_modules), the OpenAPI documents, and the
// API itself for "Try it out". No inline script or style, so 'self' suffices; Swagger UI's icons
// are data: images in its stylesheet, and its styles are set through the DOM, which CSP allows.

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Every header of a reference page (the HTML itself). */
export function referencePageHeaders(): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    // Pages change with each deployment; revalidate rather than serve a stale copy.
    'Cache-Control': 'no-cache',
  };
}

/** Headers of the site's static files (stylesheets, scripts, pictures, documents). */
export const ASSET_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;
