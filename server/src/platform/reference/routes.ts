import type { FastifyReply } from 'fastify';
import { registerStaticAssets } from '../../core/http/static-assets.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { repoPath } from '../../core/paths.ts';
import { siteContent } from './content.ts';
import { ASSET_HEADERS, referencePageHeaders } from './headers.ts';
import { ASSET_PREFIX } from './layout.ts';
import { SWAGGER_UI_PREFIX } from './pages.ts';

/** The site's own stylesheet and scripts (docs/decisions/0001: plain files, no build step). */
const ASSETS = repoPath('web', 'reference', 'assets');

/** `/docs/<section>` → the landing page's list of that section. */
const SECTION_ANCHORS = [
  ['api', 'references'],
  ['guides', 'guides'],
  ['changelog', 'sdks'],
  ['sdks', 'sdks'],
] as const;

async function sendPage(reply: FastifyReply, url: string) {
  const { pages, notFoundPage } = await siteContent();
  const html = pages.get(url);
  return reply
    .status(html ? 200 : 404)
    .headers(referencePageHeaders())
    .send(html ?? notFoundPage);
}

/**
 * The reference site at /docs (outside /v1, no authentication): the landing page, the API
 * references (Swagger UI), the error catalog every `doc_url` points into, and the Markdown guides,
 * changelogs and SDK quick starts. Requests only pick a page from a fixed set (content.ts), so no
 * address reaches a file that is not on the whitelist.
 */
export async function registerReferenceSite(app: AppInstance): Promise<void> {
  await app.register(async (scope) => {
    const hidden = { schema: { hide: true } };
    scope.get('/docs', hidden, async (_request, reply) => sendPage(reply, '/docs'));
    scope.get('/docs/', hidden, async (_request, reply) => reply.redirect('/docs', 301));
    // The section addresses themselves have no page: the landing page lists each section.
    for (const [section, anchor] of SECTION_ANCHORS) {
      scope.get(`/docs/${section}`, hidden, async (_request, reply) => reply.redirect(`/docs#${anchor}`));
    }
    scope.get('/docs/errors', hidden, async (_request, reply) => sendPage(reply, '/docs/errors'));
    scope.get('/docs/api/:name', hidden, async (request, reply) => {
      const { name } = request.params as { name: string };
      return sendPage(reply, `/docs/api/${name}`);
    });
    // Guides (docs/*.md and docs/decisions/*.md), changelogs and SDKs: looked up, never read by path.
    for (const section of ['guides', 'changelog', 'sdks']) {
      scope.get(`/docs/${section}/*`, hidden, async (request, reply) => {
        const { '*': rest } = request.params as { '*': string };
        return sendPage(reply, `/docs/${section}/${rest}`);
      });
    }

    scope.get('/docs/openapi/mailbox-v0.json', hidden, async (_request, reply) =>
      reply
        .headers({
          ...ASSET_HEADERS,
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'no-cache',
        })
        .send((await siteContent()).mailboxDocument),
    );
    scope.get('/docs/images/:file', hidden, async (request, reply) => {
      const { file } = request.params as { file: string };
      const image = (await siteContent()).images.get(file);
      if (!image) return sendPage(reply, request.url);
      return reply
        .headers({ ...ASSET_HEADERS, 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=300' })
        .send(image);
    });
    scope.get(`${SWAGGER_UI_PREFIX}:file`, hidden, async (request, reply) => {
      const { file } = request.params as { file: string };
      const vendored = (await siteContent()).swaggerUi.get(file);
      if (!vendored) return sendPage(reply, request.url);
      reply.headers({
        ...ASSET_HEADERS,
        'Content-Type': vendored.contentType,
        'Cache-Control': 'public, max-age=300',
        ETag: vendored.etag,
        Vary: 'Accept-Encoding',
      });
      if (request.headers['if-none-match'] === vendored.etag) return reply.status(304).send();
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        return reply.header('Content-Encoding', 'gzip').send(vendored.gzipped);
      }
      return reply.send(vendored.body);
    });
    await registerStaticAssets(scope, ASSETS, ASSET_PREFIX, ASSET_HEADERS);
  });
}
