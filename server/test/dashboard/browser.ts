// What every dashboard browser test needs: a page that records console errors, failed requests and
// anything fetched from another origin; an axe-core check; screenshots into docs/dashboard/ when
// DASHBOARD_SCREENSHOTS names a folder (`DASHBOARD_SCREENSHOTS=docs/dashboard node scripts/test.mjs dashboard`).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { screenshotter } from '../chromium.ts';

export const dashboardShot = screenshotter(process.env.DASHBOARD_SCREENSHOTS ?? '');

export const DESKTOP = { width: 1360, height: 900 };
export const PHONE = { width: 390, height: 844 };

export interface DashboardPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors, failed requests and requests that left the server. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * Opens `path` (a hash route such as `/#/scenarios`) in a new context. `context` lets a test reuse a
 * signed-in context (its cookie); `ignore` drops expected problems (e.g. a 401 while signed out).
 */
export async function openDashboard(
  browser: Browser,
  baseUrl: string,
  path = '/',
  options: { viewport?: { width: number; height: number }; context?: BrowserContext; ignore?: RegExp } = {},
): Promise<DashboardPage> {
  const context = options.context ?? (await browser.newContext({ viewport: options.viewport ?? DESKTOP }));
  const page = await context.newPage();
  const problems: string[] = [];
  const note = (problem: string) => {
    if (!options.ignore?.test(problem)) problems.push(problem);
  };
  page.on('console', (message) => {
    if (message.type() === 'error') note(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // Media elements abort their range requests when they have enough; that is not a failure.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') note(`failed: ${request.url()}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      note(`left the server: ${url}`);
    }
  });
  await page.goto(`${baseUrl}${path}`);
  return {
    page,
    context,
    problems,
    close: async () => {
      await page.close();
      if (!options.context) await context.close();
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page as it is now, as readable lines (empty
 * when there are none). Evaluated through the DevTools protocol, so the page's CSP does not apply.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(
      (violation: { id: string; impact: string; help: string; nodes: { target: string[] }[] }) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
      }),
    );
  });
  return violations
    .filter(
      (violation: { impact: string }) => violation.impact === 'serious' || violation.impact === 'critical',
    )
    .map(
      (violation: { id: string; impact: string; help: string; targets: string[] }) =>
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.targets.join(', ')})`,
    );
}

/** Waits until the view has drawn its heading (the shell focuses it) and no skeleton is left. */
export async function settled(page: Page): Promise<void> {
  await page.waitForSelector('[data-page-title]');
  await page.waitForFunction(() => document.querySelectorAll('.skeleton').length === 0);
}
