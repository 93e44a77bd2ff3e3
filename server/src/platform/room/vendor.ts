import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Browser libraries the room loads from its own origin (the page's CSP allows scripts from
 * 'self' only, and no request may leave the service), served at `/room-assets/vendor/<name>` as
 * ES modules. They come from the installed npm packages, so `npm update` updates them too.
 */
const VENDOR_PACKAGES: Record<string, { resolve: string; format: 'umd' | 'esm' }> = {
  // Writes the duration into MediaRecorder's WebM (it has none: players cannot seek).
  'fix-webm-duration.js': { resolve: 'fix-webm-duration', format: 'umd' },
};

export interface VendorModule {
  body: string;
  etag: string;
}

/**
 * A UMD script as an ES module: it sees a CommonJS `module` (no AMD `define`), assigns its export
 * there, and the wrapper exports that as `default`. Module code is strict; the UMD builds used
 * here are strict-safe (checked by the room plugin's test).
 */
export function umdAsModule(source: string): string {
  return `const module = { exports: {} };\n${source}\nexport default module.exports;\n`;
}

/** Loads every vendored module once (at start-up), keyed by file name. */
export function loadVendorModules(): Map<string, VendorModule> {
  const require = createRequire(import.meta.url);
  const modules = new Map<string, VendorModule>();
  for (const [name, { resolve, format }] of Object.entries(VENDOR_PACKAGES)) {
    const source = readFileSync(require.resolve(resolve), 'utf8');
    const body = format === 'umd' ? umdAsModule(source) : source;
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    modules.set(name, { body, etag });
  }
  return modules;
}
