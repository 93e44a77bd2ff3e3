import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const DEFAULT_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Serves a folder of a page's own files (scripts, styles, images) under `prefix`: no directory
 * index, no dot files, and, as the file names carry no content hash, a five-minute cache revalidated
 * by ETag.
 */
export async function registerStaticAssets(
  scope: FastifyInstance,
  root: string,
  prefix: string,
  headers: Record<string, string> = DEFAULT_HEADERS,
): Promise<void> {
  await scope.register(fastifyStatic, {
    root,
    prefix,
    decorateReply: false,
    index: false,
    wildcard: true,
    serveDotFiles: false,
    maxAge: '5m',
    setHeaders: (response) => {
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    },
  });
}
