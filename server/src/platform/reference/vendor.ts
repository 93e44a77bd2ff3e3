import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/**
 * Swagger UI's files, read from the installed `swagger-ui-dist` package (so `npm update` updates
 * them) and served from this origin: the pages may load nothing from elsewhere.
 */
const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

export interface VendorFile {
  body: Buffer;
  /** The same bytes gzipped once, off the event loop: the bundle shrinks from about 1.4 MB to a third. */
  gzipped: Buffer;
  contentType: string;
  etag: string;
}

/** Loads the files once (content.ts), keyed by file name: the whitelist of what is served. */
export async function loadSwaggerUi(): Promise<Map<string, VendorFile>> {
  const require = createRequire(import.meta.url);
  const files = new Map<string, VendorFile>();
  for (const [name, contentType] of Object.entries(SWAGGER_UI_FILES)) {
    // The bundle's last line points browsers at a source map this site does not serve.
    const text = (await readFile(require.resolve(`swagger-ui-dist/${name}`), 'utf8')).replace(
      /\n\/[/*][#@] sourceMappingURL=\S+\s*(?:\*\/)?\s*$/,
      '\n',
    );
    const body = Buffer.from(text);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    files.set(name, { body, gzipped: await gzipAsync(body), contentType, etag });
  }
  return files;
}
