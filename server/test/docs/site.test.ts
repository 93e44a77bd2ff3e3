// The reference site at /docs: every page answers with its security headers, every error code has
// its section, real errors' doc_url (platform and mailbox) land on a page holding that code's id,
// Markdown links are rewritten to pages that exist, and no address reaches a file off the whitelist.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { ERROR_CODES } from '../../src/core/http/errors.ts';
import { ERROR_CATALOG } from '../../src/core/http/errors-catalog.ts';
import { documentSources } from '../../src/platform/reference/documents.ts';
import { bearer } from '../harness.ts';
import { startMailbox, type TestMailbox } from '../mailbox/app.ts';

describe('reference site', () => {
  let t: TestMailbox;
  const get = (url: string) => t.platform.app.inject({ method: 'GET', url });

  before(async () => {
    t = await startMailbox();
  });
  after(() => t.close());

  const PAGES = [
    '/docs',
    '/docs/errors',
    '/docs/api/platform',
    '/docs/api/mailbox',
    '/docs/changelog/platform',
    '/docs/changelog/mailbox',
    '/docs/sdks/node',
    '/docs/sdks/python',
    '/docs/guides/api-conventions',
    '/docs/guides/webhooks',
    '/docs/guides/decisions/0001-room-without-bundler',
  ];

  test('every page answers with HTML and a self-only CSP', async () => {
    for (const url of PAGES) {
      const response = await get(url);
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-type']), /^text\/html/, url);
      const csp = String(response.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/, url);
      assert.match(csp, /script-src 'self'(;|$)/, url);
      assert.match(csp, /style-src 'self'(;|$)/, url);
      assert.match(csp, /frame-ancestors 'none'/, url);
      assert.equal(response.headers['x-content-type-options'], 'nosniff', url);
      // No inline script or style: the CSP would block them.
      assert.doesNotMatch(response.body, /<script(?![^>]*\bsrc=)[^>]*>/, url);
      assert.doesNotMatch(response.body, /<style|\sstyle="/, url);
      assert.match(response.body, /<a class="skip-link" href="#content">/, url);
    }
  });

  test('every Markdown document of the whitelist has its page', async () => {
    for (const source of documentSources()) {
      const response = await get(source.url);
      assert.equal(response.statusCode, 200, source.url);
      assert.ok(response.body.includes(source.repoPath), `${source.url} names its source`);
    }
  });

  test('the landing page links every reference, guide, changelog and SDK', async () => {
    const { body } = await get('/docs');
    for (const url of PAGES.filter((url) => url !== '/docs')) assert.ok(body.includes(`href="${url}"`), url);
    for (const source of documentSources()) assert.ok(body.includes(`href="${source.url}"`), source.url);
  });

  test('the assets the pages load are served from this origin', async () => {
    const pages = await Promise.all(['/docs', '/docs/api/platform'].map(get));
    const assets = new Set(
      pages.flatMap((page) =>
        [...page.body.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!),
      ),
    );
    assert.ok(assets.has('/docs/assets/vendor/swagger-ui/swagger-ui-bundle.js'));
    assert.ok(assets.has('/docs/assets/reference.css'));
    for (const asset of assets) {
      const response = await get(asset);
      assert.equal(response.statusCode, 200, asset);
      assert.equal(response.headers['x-content-type-options'], 'nosniff', asset);
      assert.match(String(response.headers['content-type']), /javascript|css|svg/, asset);
    }
    const bundle = await get('/docs/assets/vendor/swagger-ui/swagger-ui-bundle.js');
    const etag = String(bundle.headers.etag);
    const again = await t.platform.app.inject({
      method: 'GET',
      url: '/docs/assets/vendor/swagger-ui/swagger-ui-bundle.js',
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.statusCode, 304);
    const compressed = await t.platform.app.inject({
      method: 'GET',
      url: '/docs/assets/vendor/swagger-ui/swagger-ui-bundle.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    assert.equal(compressed.headers['content-encoding'], 'gzip');
    assert.ok(compressed.rawPayload.length < bundle.rawPayload.length / 2);
    assert.equal(gunzipSync(compressed.rawPayload).toString(), bundle.body);
  });

  test('the API pages name the OpenAPI documents they render, and both documents are served', async () => {
    assert.match((await get('/docs/api/platform')).body, /data-spec-url="\/v1\/openapi.json"/);
    assert.match((await get('/docs/api/mailbox')).body, /data-spec-url="\/docs\/openapi\/mailbox-v0.json"/);
    const platform = await get('/v1/openapi.json');
    assert.equal(platform.statusCode, 200);
    assert.ok(Object.keys(platform.json().paths).length > 10);
    const mailbox = await get('/docs/openapi/mailbox-v0.json');
    assert.equal(mailbox.statusCode, 200);
    assert.equal(mailbox.json().info.title, 'Understudy Mailbox API');
  });

  test('every error code has its section, with status, type and the catalog text', async () => {
    const { body } = await get('/docs/errors');
    for (const [code, { status, type }] of Object.entries(ERROR_CODES)) {
      const start = body.indexOf(`<section class="error-code" id="${code}"`);
      assert.ok(start >= 0, `section for ${code}`);
      const section = body.slice(start, body.indexOf('</section>', start));
      assert.ok(section.includes(`HTTP ${status}`), code);
      assert.ok(section.includes(type), code);
      assert.ok(section.includes('Common causes') && section.includes('What to do'), code);
      const explanation = ERROR_CATALOG[code as keyof typeof ERROR_CATALOG];
      assert.ok(explanation.causes.length > 0 && explanation.fix.length > 0, code);
    }
  });

  test("a platform error's doc_url resolves to a page holding that code's id", async () => {
    const ws = await t.platform.signup();
    const response = await t.platform.app.inject({
      method: 'GET',
      url: '/v1/scenarios/00000000-0000-4000-8000-000000000000',
      headers: bearer(ws.token),
    });
    const { code, doc_url } = response.json().error;
    assert.equal(code, 'resource_not_found');
    const url = new URL(doc_url);
    assert.equal(url.hash, `#${code}`);
    const page = await get(url.pathname);
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`id="${code}"`));
  });

  test("a mailbox error's doc_url resolves on the platform's reference site", async () => {
    const response = await t.request('GET', '/v0/inboxes/nobody@mail.test', t.adminKey);
    assert.equal(response.status, 404);
    const { code, doc_url } = response.body.error;
    assert.equal(code, 'not_found');
    const url = new URL(doc_url);
    assert.equal(url.origin, new URL(t.deps.config.publicUrl).origin);
    const page = await get(`${url.pathname}`);
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`id="${code}"`));
    // The mailbox's own /docs addresses send readers to the platform's pages.
    const redirect = await t.app.inject({ method: 'GET', url: '/docs/errors' });
    assert.equal(redirect.statusCode, 302);
    assert.equal(redirect.headers.location, `${t.deps.config.publicUrl}/docs/errors`);
  });

  test('links between documents are rewritten to pages that exist', async () => {
    const hrefs = new Set<string>();
    for (const source of documentSources()) {
      const { body } = await get(source.url);
      for (const match of body.matchAll(/<a href="(\/[^"#]*)(#[^"]*)?"/g)) hrefs.add(match[1]!);
    }
    assert.ok(hrefs.has('/docs/guides/webhooks'), 'guides link each other');
    for (const href of hrefs) {
      const response = await get(href);
      assert.equal(response.statusCode, 200, `${href} is linked from a document`);
    }
    // A link to a repository file the site does not serve stays text, never a dead link.
    const { body } = await get('/docs/guides/decisions/0001-room-without-bundler');
    assert.doesNotMatch(body, /href="[^"]*\.md/);
  });

  test('pictures in documents come from the site itself', async () => {
    const { body } = await get('/docs/guides/reference-site');
    const sources = [...body.matchAll(/<img src="([^"]+)"/g)].map((match) => match[1]!);
    assert.ok(sources.length > 0, 'the reference-site page shows its screenshots');
    for (const src of sources) {
      assert.match(src, /^\/docs\/images\//);
      const image = await get(src);
      assert.equal(image.statusCode, 200, src);
      assert.equal(image.headers['content-type'], 'image/png', src);
    }
  });

  test('headings carry the anchors links point at', async () => {
    const { body } = await get('/docs/guides/mailbox');
    assert.match(body, /<h2 id="[a-z0-9-]+">/);
  });

  test('addresses outside the whitelist are refused, however they are spelt', async () => {
    const attempts = [
      '/docs/guides/../../package.json',
      '/docs/guides/%2e%2e%2f%2e%2e%2fpackage.json',
      '/docs/guides/..%2f..%2fREADME',
      '/docs/guides/webhooks.md',
      '/docs/guides/decisions/../../../.env',
      '/docs/sdks/node/../../../package.json',
      '/docs/changelog/..%2f..%2f..%2fpackage.json',
      '/docs/api/..%2fplatform',
      '/docs/assets/../../../package.json',
      '/docs/assets/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/docs/assets/vendor/swagger-ui/package.json',
      '/docs/assets/vendor/swagger-ui/..%2fswagger-ui-dist%2fpackage.json',
      '/docs/images/..%2f..%2fpackage.json',
      '/docs/images/screenshot.png',
    ];
    for (const url of attempts) {
      const response = await get(url);
      assert.ok([400, 403, 404].includes(response.statusCode), `${url} → ${response.statusCode}`);
      assert.doesNotMatch(response.body, /"name": ?"understudy"|devDependencies/, url);
    }
  });

  test('section addresses lead to their list on the landing page', async () => {
    const guides = await get('/docs/guides');
    assert.equal(guides.statusCode, 302);
    assert.equal(guides.headers.location, '/docs#guides');
    const { body } = await get('/docs');
    for (const section of ['api', 'guides', 'changelog', 'sdks']) {
      const { headers } = await get(`/docs/${section}`);
      const anchor = String(headers.location).split('#')[1];
      assert.ok(body.includes(`id="${anchor}"`), section);
    }
  });

  test('an unknown page under /docs is an HTML 404 with the site around it', async () => {
    const response = await get('/docs/guides/no-such-guide');
    assert.equal(response.statusCode, 404);
    assert.match(response.body, /Page not found/);
    assert.match(String(response.headers['content-security-policy']), /default-src 'none'/);
  });
});
