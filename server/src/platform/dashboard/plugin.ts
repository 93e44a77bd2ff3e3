import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml } from '../../core/html.ts';
import { registerStaticAssets } from '../../core/http/static-assets.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { loadVendorModules, type VendorPackage, vendorHandler } from '../../core/http/vendor-modules.ts';
import { repoPath } from '../../core/paths.ts';
import { type DashboardHeaderOptions, dashboardPageHeaders } from './headers.ts';

/** The dashboard: plain ES modules, HTML and CSS under web/dashboard (docs/decisions/0007). */
const WEB_ROOT = repoPath('web', 'dashboard');
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
export async function registerDashboard(
  app: AppInstance,
  options: DashboardHeaderOptions & { pageMeta?: Record<string, string> },
): Promise<void> {
  const page = withMeta(readFileSync(join(WEB_ROOT, 'index.html'), 'utf8'), options.pageMeta);
  const headers = dashboardPageHeaders(options);
  const vendorModules = loadVendorModules(DASHBOARD_VENDOR_PACKAGES);

  await app.register(async (scope) => {
    const hidden = { schema: { hide: true } };
    scope.get('/', hidden, async (_request, reply) => reply.headers(headers).send(page));
    scope.get(`${DASHBOARD_ASSET_PREFIX}vendor/:file`, hidden, vendorHandler(vendorModules));
    await registerStaticAssets(scope, join(WEB_ROOT, 'assets'), DASHBOARD_ASSET_PREFIX);
  });
}

/** Settings the page's scripts read from `<meta name=…>` (no inline script under the CSP). */
function withMeta(page: string, meta: Record<string, string> = {}): string {
  const tags = Object.entries(meta)
    .map(([name, content]) => `    <meta name="${escapeHtml(name)}" content="${escapeHtml(content)}" />\n`)
    .join('');
  return page.replace('  </head>', `${tags}  </head>`);
}
