import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../../core/paths.ts';
import { type RenderedMarkdown, renderMarkdown } from './markdown.ts';

/** The repository's root: the Markdown files and the committed OpenAPI documents live there. */

export type DocumentGroup = 'guide' | 'decision' | 'changelog' | 'sdk';

/** A Markdown file the site serves: the whitelist is exactly the set of these (no path from a request reaches the disk). */
export interface DocumentSource {
  /** The page's address on the site. */
  url: string;
  /** The file, relative to the repository's root. */
  repoPath: string;
  group: DocumentGroup;
  /** The heading used when the file is missing or has no level-1 heading. */
  fallbackTitle: string;
}

export interface SiteDocument extends DocumentSource, RenderedMarkdown {
  title: string;
  /** False when the file does not exist (yet): the page says so. */
  available: boolean;
}

/** Files written alongside this site by other work: served when present, announced as coming otherwise. */
const FIXED_SOURCES: DocumentSource[] = [
  {
    url: '/docs/changelog/platform',
    repoPath: 'server/src/platform/CHANGELOG.md',
    group: 'changelog',
    fallbackTitle: 'Platform API changelog',
  },
  {
    url: '/docs/changelog/mailbox',
    repoPath: 'server/src/mailbox/CHANGELOG.md',
    group: 'changelog',
    fallbackTitle: 'Mailbox API changelog',
  },
  { url: '/docs/sdks/node', repoPath: 'sdk/node/README.md', group: 'sdk', fallbackTitle: 'Node SDK' },
  { url: '/docs/sdks/python', repoPath: 'sdk/python/README.md', group: 'sdk', fallbackTitle: 'Python SDK' },
];

/** Repository files the site offers for download or display, by repository path → address. */
const FIXED_LINKS: Record<string, string> = {
  'openapi/platform-v1.json': '/v1/openapi.json',
  'openapi/mailbox-v0.json': '/docs/openapi/mailbox-v0.json',
};

const NAME = /^[a-z0-9][a-z0-9-]*$/;

/** The Markdown files of a folder whose names are plain (`webhooks.md`), sorted. */
function markdownNames(root: string, folder: string): string[] {
  const dir = join(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md') && NAME.test(entry.name.slice(0, -3)))
    .map((entry) => entry.name.slice(0, -3))
    .sort();
}

/** Every Markdown file the site serves: the guides of docs/, the decision records, changelogs and SDKs. */
export function documentSources(root = REPO_ROOT): DocumentSource[] {
  const guides = markdownNames(root, 'docs').map(
    (name): DocumentSource => ({
      url: `/docs/guides/${name}`,
      repoPath: `docs/${name}.md`,
      group: 'guide',
      fallbackTitle: name,
    }),
  );
  const decisions = markdownNames(root, 'docs/decisions').map(
    (name): DocumentSource => ({
      url: `/docs/guides/decisions/${name}`,
      repoPath: `docs/decisions/${name}.md`,
      group: 'decision',
      fallbackTitle: name,
    }),
  );
  return [...guides, ...decisions, ...FIXED_SOURCES];
}

/** The pictures of docs/reference/ (the site's own screenshots), for pages that show them. */
export function imageSources(root = REPO_ROOT): Map<string, { repoPath: string; url: string }> {
  const dir = join(root, 'docs/reference');
  const images = new Map<string, { repoPath: string; url: string }>();
  if (!existsSync(dir)) return images;
  for (const name of readdirSync(dir)) {
    if (!/^[a-z0-9][a-z0-9-]*\.png$/.test(name)) continue;
    images.set(name, { repoPath: `docs/reference/${name}`, url: `/docs/images/${name}` });
  }
  return images;
}

/** Reads and renders every document once (content.ts), keyed by its address. */
export async function loadDocuments(root = REPO_ROOT): Promise<Map<string, SiteDocument>> {
  const sources = documentSources(root);
  const images = imageSources(root);
  const links = new Map<string, string>(Object.entries(FIXED_LINKS));
  for (const source of sources) links.set(source.repoPath, source.url);
  for (const image of images.values()) links.set(image.repoPath, image.url);
  const resolve = (repoPath: string) => links.get(repoPath) ?? null;

  const documents = new Map<string, SiteDocument>();
  for (const source of sources) {
    const file = join(root, source.repoPath);
    if (!existsSync(file)) {
      documents.set(source.url, {
        ...source,
        title: source.fallbackTitle,
        summary: '',
        html: '',
        sections: [],
        available: false,
      });
      continue;
    }
    const rendered = renderMarkdown(await readFile(file, 'utf8'), source.repoPath, resolve);
    documents.set(source.url, {
      ...source,
      ...rendered,
      title: rendered.title ?? source.fallbackTitle,
      available: true,
    });
  }
  return documents;
}
