// Debian's Chromium driven by playwright-core, for the browser tests. Tests skip with `chromiumMissing`
// when it is absent (scripts/ensure-chromium.sh installs it).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const chromiumMissing: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (run scripts/ensure-chromium.sh)`;

const BASE_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Network only to loopback: no name resolves except the test server's address.
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

/** Flags a test needs beyond the base ones: a fake microphone and the like. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...BASE_ARGS, ...extraArgs] });
}

/** Saves `<dir>/<prefix><name>.png`; does nothing when `dir` is empty (screenshots are opt-in). */
export function screenshotter(dir: string, prefix = ''): (page: Page, name: string) => Promise<void> {
  return async (page, name) => {
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${prefix}${name}.png`) });
  };
}
