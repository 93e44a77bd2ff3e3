import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Browser libraries a page loads from its own origin (the pages' CSP allows scripts and styles from
 * 'self' only, and no request may leave the service). They come from the installed npm packages,
 * so `npm update` updates them too: an ES module as it is, a UMD script wrapped as an ES module, or
 * a stylesheet.
 */
export interface VendorPackage {
  /** A package (`fix-webm-duration`) or a file inside one (`uplot/dist/uPlot.esm.js`). */
  resolve: string;
  format: 'umd' | 'esm' | 'css';
}

export interface VendorModule {
  body: string;
  etag: string;
  contentType: string;
}

/**
 * A UMD script as an ES module: it sees a CommonJS `module` (no AMD `define`), assigns its export
 * there, and the wrapper exports that as `default`. Module code is strict; the UMD builds used
 * here are strict-safe (checked by the room plugin's test).
 */
export function umdAsModule(source: string): string {
  return `const module = { exports: {} };\n${source}\nexport default module.exports;\n`;
}

/**
 * The file a specifier names. A file inside a package is found from the package's folder (the one
 * above its entry point holding its package.json), since packages with an `exports` map (htm)
 * refuse `require.resolve` of files they do not list.
 */
function resolveFile(require: NodeJS.Require, specifier: string): string {
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  if (parts.length <= nameLength) return require.resolve(specifier);
  let folder = dirname(require.resolve(parts.slice(0, nameLength).join('/')));
  while (!existsSync(join(folder, 'package.json'))) {
    if (dirname(folder) === folder) throw new Error(`no package.json above the entry point of ${specifier}`);
    folder = dirname(folder);
  }
  return join(folder, ...parts.slice(nameLength));
}

/** Loads every vendored file once (at start-up), keyed by the file name it is served under. */
export function loadVendorModules(packages: Record<string, VendorPackage>): Map<string, VendorModule> {
  const require = createRequire(import.meta.url);
  const modules = new Map<string, VendorModule>();
  for (const [name, { resolve, format }] of Object.entries(packages)) {
    const source = readFileSync(resolveFile(require, resolve), 'utf8');
    const body = format === 'umd' ? umdAsModule(source) : source;
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const contentType = format === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    modules.set(name, { body, etag, contentType });
  }
  return modules;
}

/** A route handler serving `:file` from the loaded modules, with a short revalidated cache. */
export function vendorHandler(modules: Map<string, VendorModule>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { file } = request.params as { file: string };
    const vendored = modules.get(file);
    if (!vendored) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    reply.headers({
      'Content-Type': vendored.contentType,
      'Cache-Control': 'public, max-age=300',
      ETag: vendored.etag,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
    if (request.headers['if-none-match'] === vendored.etag) return reply.status(304).send();
    return reply.send(vendored.body);
  };
}
