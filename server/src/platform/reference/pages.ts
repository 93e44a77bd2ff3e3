import { escapeHtml } from '../../core/html.ts';
import type { SiteDocument } from './documents.ts';
import { ASSET_PREFIX, documentSidebar, page } from './layout.ts';

export const SWAGGER_UI_PREFIX = `${ASSET_PREFIX}vendor/swagger-ui/`;

/** The two API references: which document each renders, and whether "Try it out" can reach the API. */
export const API_REFERENCES = {
  platform: {
    title: 'Platform API',
    specUrl: '/v1/openapi.json',
    intro:
      'Scenarios, personas, goals, meetings, analyses and webhooks under <code>/v1</code>. Authenticate with <code>Authorization: Bearer &lt;API key&gt;</code>; “Authorize” below stores a key in this page only, and “Try it out” calls this server.',
    tryItOut: true,
  },
  mailbox: {
    title: 'Mailbox API',
    specUrl: '/docs/openapi/mailbox-v0.json',
    intro:
      'Inboxes for agents under <code>/v0</code>, served by the mailbox service on its own port (<code>MAILBOX_PORT</code>), so requests cannot be tried from this page. The document is the committed <code>openapi/mailbox-v0.json</code>.',
    tryItOut: false,
  },
} as const;

export type ApiName = keyof typeof API_REFERENCES;

/** An API reference: Swagger UI renders the OpenAPI document into `#api-reference`. */
export function apiPage(name: ApiName): string {
  const reference = API_REFERENCES[name];
  const main = `<div class="api-intro">
<h1>${reference.title} reference</h1>
<p>${reference.intro} <a href="${reference.specUrl}">Download the OpenAPI document</a>.</p>
</div>
<div id="api-reference" class="api-reference" data-spec-url="${reference.specUrl}" data-try-it-out="${reference.tryItOut}">
<p class="loading" role="status">Loading the reference…</p>
<noscript><p>The interactive reference needs JavaScript. The OpenAPI document is at <a href="${reference.specUrl}">${reference.specUrl}</a>.</p></noscript>
</div>`;
  return page({
    title: `${reference.title} reference`,
    current: name,
    main,
    bodyClass: 'api-page',
    stylesheets: [`${SWAGGER_UI_PREFIX}swagger-ui.css`],
    scripts: [`${SWAGGER_UI_PREFIX}swagger-ui-bundle.js`, `${ASSET_PREFIX}api-reference.js`],
  });
}

const NOT_YET: Record<SiteDocument['group'], string> = {
  guide: 'This guide has not been written yet.',
  decision: 'This record has not been written yet.',
  changelog: 'Not yet: the changelog is being written and appears here once it is part of this server.',
  sdk: 'Not yet: this SDK’s quick start is being written and appears here once it is part of this server.',
};

const CURRENT: Record<SiteDocument['group'], 'guides' | 'changelog' | 'sdks'> = {
  guide: 'guides',
  decision: 'guides',
  changelog: 'changelog',
  sdk: 'sdks',
};

/** A Markdown document (guide, decision record, changelog or SDK quick start). */
export function documentPage(document: SiteDocument, all: Iterable<SiteDocument>): string {
  const body = document.available
    ? document.html
    : `<p class="not-yet" role="status">${NOT_YET[document.group]}</p>`;
  const main = `<article class="prose">
<h1>${escapeHtml(document.title)}</h1>
${body}
<p class="source">Source: <code>${escapeHtml(document.repoPath)}</code></p>
</article>`;
  return page({
    title: document.title,
    current: CURRENT[document.group],
    main,
    sidebar: documentSidebar(all, document.url, document.sections),
  });
}

const card = (href: string, title: string, text: string, note = '') =>
  `<li class="card"><a href="${href}"><span class="card-title">${escapeHtml(title)}${note ? ` <span class="badge">${note}</span>` : ''}</span><span class="card-text">${escapeHtml(text)}</span></a></li>`;

const clip = (text: string, length = 160) =>
  text.length <= length ? text : `${text.slice(0, text.lastIndexOf(' ', length)).replace(/[,;:.]$/, '')}…`;

/** `/docs`: where everything is. */
export function landingPage(documents: Iterable<SiteDocument>): string {
  const all = [...documents];
  const byUrl = new Map(all.map((document) => [document.url, document]));
  const status = (url: string) => (byUrl.get(url)?.available ? '' : 'not yet');
  const guides = all
    .filter((document) => document.group === 'guide')
    .map((document) => card(document.url, document.title, clip(document.summary)))
    .join('');
  const decisions = all
    .filter((document) => document.group === 'decision')
    .map((document) => `<li><a href="${document.url}">${escapeHtml(document.title)}</a></li>`)
    .join('');
  const main = `<section class="hero">
<h1>Build on Understudy</h1>
<p class="lead">Meeting simulation and agent inboxes over HTTP: the API references, every error explained, guides, the changelog and the SDKs, served by this server.</p>
<p class="hero-actions"><a class="button" href="/docs/api/platform">Platform API reference</a> <a class="button button-secondary" href="/docs/guides/api-conventions">Read the conventions</a></p>
</section>
<section aria-labelledby="references">
<h2 id="references">API references</h2>
<ul class="cards">
${card('/docs/api/platform', 'Platform API', 'Scenarios, personas, goals, meetings, analyses, webhooks and the meeting room, under /v1.')}
${card('/docs/api/mailbox', 'Mailbox API', 'Inboxes for agents: SMTP in and out, threads, drafts, scoped keys and events, under /v0.')}
${card('/docs/errors', 'Errors', 'Every error code: what it means, its HTTP status and type, common causes and what to do.')}
</ul>
</section>
<section aria-labelledby="sdks">
<h2 id="sdks">SDKs and changelog</h2>
<ul class="cards">
${card('/docs/sdks/node', 'Node SDK', 'TypeScript client for Node 18+: retries, idempotency, typed errors, pagination and webhook verification.', status('/docs/sdks/node'))}
${card('/docs/sdks/python', 'Python SDK', 'Standard-library client for Python 3.10+, with the same features and Pythonic names.', status('/docs/sdks/python'))}
${card('/docs/changelog/platform', 'Platform changelog', 'Integrator-facing changes of /v1, newest first, each marked additive or breaking.', status('/docs/changelog/platform'))}
${card('/docs/changelog/mailbox', 'Mailbox changelog', 'Integrator-facing changes of /v0, newest first, each marked additive or breaking.', status('/docs/changelog/mailbox'))}
</ul>
</section>
<section aria-labelledby="guides">
<h2 id="guides">Guides</h2>
<ul class="cards">${guides}</ul>
</section>
<section aria-labelledby="decisions">
<h2 id="decisions">Decision records</h2>
<ul class="link-list">${decisions}</ul>
</section>`;
  return page({ title: 'Overview', current: 'home', main, bodyClass: 'landing' });
}

/** The answer to an address under /docs that names no page. */
export function notFoundPage(): string {
  const main = `<article class="prose">
<h1>Page not found</h1>
<p>There is no documentation page at this address. Start from the <a href="/docs">overview</a>.</p>
</article>`;
  return page({ title: 'Page not found', current: 'home', main });
}
