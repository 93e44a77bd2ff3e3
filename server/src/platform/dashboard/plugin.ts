import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { AppInstance } from '../../core/http/types.ts';
import { loadVendorModules, type VendorPackage, vendorHandler } from '../../core/http/vendor-modules.ts';
import { type DashboardHeaderOptions, dashboardPageHeaders } from './headers.ts';

/** The dashboard: plain ES modules, HTML and CSS under web/dashboard (docs/decisions/0007). */
const WEB_ROOT = new URL('../../../../web/dashboard/', import.meta.url);
export const DASHBOARD_ASSET_PREFIX = '/dashboard-assets/';

/** Libraries the dashboard loads from its own origin, at `/dashboard-assets/vendor/<name>`. */
const DASHBOARD_VENDOR_PACKAGES: Record<string, VendorPackage> = {
  // Preact with its hooks and htm's tagged templates in one module: components without a build.
  'htm-preact.js': { resolve: 'htm/preact/standalone.module.js', format: 'esm' },
  'uplot.js': { resolve: 'uplot/dist/uPlot.esm.js', format: 'esm' },
  'uplot.css': { resolve: 'uplot/dist/uPlot.min.css', format: 'css' },
  // Markdown previews (scenario scripts); the page escapes raw HTML and sanitises the output.
  'marked.js': { resolve: 'marked/lib/marked.esm.js', format: 'esm' },
};

/**
 * Serves the dashboard at `/` (one page; its views are hash routes such as `/#/scenarios`) and its
 * files under `/dashboard-assets/`. The page holds no data: everything it shows comes from the
 * public /v1 API, called with the session cookie (docs/dashboard.md).
 */
export async function registerDashboard(app: AppInstance, options: DashboardHeaderOptions): Promise<void> {
  const page = readFileSync(fileURLToPath(new URL('index.html', WEB_ROOT)), 'utf8');
  const headers = dashboardPageHeaders(options);
  const vendorModules = loadVendorModules(DASHBOARD_VENDOR_PACKAGES);

  await app.register(async (scope) => {
    const hidden = { schema: { hide: true } };
    scope.get('/', hidden, async (_request, reply) => reply.headers(headers).send(page));
    scope.get(`${DASHBOARD_ASSET_PREFIX}vendor/:file`, hidden, vendorHandler(vendorModules));
    await scope.register(fastifyStatic, {
      root: fileURLToPath(new URL('assets/', WEB_ROOT)),
      prefix: DASHBOARD_ASSET_PREFIX,
      decorateReply: false,
      index: false,
      wildcard: true,
      serveDotFiles: false,
      // No content hashes in the file names: a short cache, revalidated by ETag.
      maxAge: '5m',
      setHeaders: (response) => {
        response.setHeader('X-Content-Type-Options', 'nosniff');
        response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
      },
    });
  });
}
