import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderMarkdown, slugOf } from './markdown.ts';

const PAGES: Record<string, string> = {
  'docs/webhooks.md': '/docs/guides/webhooks',
  'docs/decisions/0001-room.md': '/docs/guides/decisions/0001-room',
  'sdk/node/README.md': '/docs/sdks/node',
};
const resolve = (repoPath: string) => PAGES[repoPath] ?? null;

test('links between served files become their pages, anchors kept', () => {
  const { html } = renderMarkdown(
    'See [webhooks](webhooks.md#rotating-the-secret), [0001](decisions/0001-room.md) and [the SDK](../sdk/node/README.md).',
    'docs/mailbox.md',
    resolve,
  );
  assert.match(html, /<a href="\/docs\/guides\/webhooks#rotating-the-secret">webhooks<\/a>/);
  assert.match(html, /<a href="\/docs\/guides\/decisions\/0001-room">0001<\/a>/);
  assert.match(html, /<a href="\/docs\/sdks\/node">the SDK<\/a>/);
});

test('relative links resolve against the linking file’s folder', () => {
  const { html } = renderMarkdown('[back](../webhooks.md)', 'docs/decisions/0002-x.md', resolve);
  assert.match(html, /<a href="\/docs\/guides\/webhooks">back<\/a>/);
});

test('a link to a file the site does not serve is text naming the file, not a dead link', () => {
  const { html } = renderMarkdown(
    '[the plugin](../server/src/platform/room/plugin.ts) and [readme](../README.md)',
    'docs/room.md',
    resolve,
  );
  assert.doesNotMatch(html, /<a /);
  assert.match(
    html,
    /<span class="repo-ref" title="..\/server\/src\/platform\/room\/plugin.ts in the repository">the plugin<\/span>/,
  );
});

test('external links and in-page anchors stay as they are', () => {
  const { html } = renderMarkdown(
    '[spec](https://spec.openapis.org/) and [below](#errors)',
    'docs/x.md',
    resolve,
  );
  assert.match(html, /<a href="https:\/\/spec.openapis.org\/" rel="noopener noreferrer">spec<\/a>/);
  assert.match(html, /<a href="#errors">below<\/a>/);
});

test('the first level-1 heading is the title; level-2 headings get unique GitHub-style ids', () => {
  const rendered = renderMarkdown(
    '# Webhooks\n\nPushed events.\n\n## Rotating the secret\n\n## Events\n\n### Events\n',
    'docs/webhooks.md',
    resolve,
  );
  assert.equal(rendered.title, 'Webhooks');
  assert.equal(rendered.summary, 'Pushed events.');
  assert.doesNotMatch(rendered.html, /<h1/);
  assert.match(rendered.html, /<h2 id="rotating-the-secret">/);
  assert.match(rendered.html, /<h2 id="events">/);
  assert.match(rendered.html, /<h3 id="events-1">/);
  assert.deepEqual(
    rendered.sections.map((section) => section.id),
    ['rotating-the-secret', 'events'],
  );
});

test('slugs drop punctuation and keep letters, digits, hyphens and underscores', () => {
  assert.equal(slugOf('Allow and block lists'), 'allow-and-block-lists');
  assert.equal(slugOf('Pausing an endpoint (enabled: false)'), 'pausing-an-endpoint-enabled-false');
  assert.equal(slugOf('`doc_url` and errors'), 'doc_url-and-errors');
});
