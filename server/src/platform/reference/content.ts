import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../../core/paths.ts';
import { imageSources, loadDocuments } from './documents.ts';
import { errorsPage } from './errors-page.ts';
import { apiPage, documentPage, landingPage, notFoundPage } from './pages.ts';
import { loadSwaggerUi, type VendorFile } from './vendor.ts';

/** The mailbox is another service: the platform serves its committed document for the reference. */
const MAILBOX_DOCUMENT = 'openapi/mailbox-v0.json';

/** Everything the site serves besides its static assets, by address or file name: the whitelist. */
export interface SiteContent {
  /** Rendered HTML by address. */
  pages: Map<string, string>;
  notFoundPage: string;
  swaggerUi: Map<string, VendorFile>;
  images: Map<string, Buffer>;
  mailboxDocument: string;
}

async function buildSiteContent(): Promise<SiteContent> {
  const documents = await loadDocuments();
  const pages = new Map<string, string>([
    ['/docs', landingPage(documents.values())],
    ['/docs/errors', errorsPage()],
    ['/docs/api/platform', apiPage('platform')],
    ['/docs/api/mailbox', apiPage('mailbox')],
  ]);
  for (const document of documents.values()) {
    pages.set(document.url, documentPage(document, documents.values()));
  }
  const images = new Map<string, Buffer>();
  for (const [name, image] of imageSources())
    images.set(name, await readFile(join(REPO_ROOT, image.repoPath)));
  return {
    pages,
    notFoundPage: notFoundPage(),
    swaggerUi: await loadSwaggerUi(),
    images,
    mailboxDocument: await readFile(join(REPO_ROOT, MAILBOX_DOCUMENT), 'utf8'),
  };
}

let built: Promise<SiteContent> | undefined;

/**
 * The site's content, built once and kept for the life of the process: the files do not change
 * while the server runs (a restart shows edits). Built on the first request rather than at
 * start-up, since processes that never serve a page (most tests, workers) should not pay for it,
 * and asynchronously (file reads and the gzip of the 1.4 MB Swagger UI bundle off the event loop;
 * only the small Markdown rendering runs on it); requests arriving meanwhile wait for the same build. A
 * failed build is forgotten, so the next request tries again.
 */
export function siteContent(): Promise<SiteContent> {
  built ??= buildSiteContent().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}
