import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageSources, loadDocuments, REPO_ROOT } from './documents.ts';
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

function buildSiteContent(): SiteContent {
  const documents = loadDocuments();
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
  for (const [name, image] of imageSources()) images.set(name, readFileSync(join(REPO_ROOT, image.repoPath)));
  return {
    pages,
    notFoundPage: notFoundPage(),
    swaggerUi: loadSwaggerUi(),
    images,
    mailboxDocument: readFileSync(join(REPO_ROOT, MAILBOX_DOCUMENT), 'utf8'),
  };
}

let built: SiteContent | undefined;

/**
 * The site's content, built on the first request and kept for the life of the process: the files
 * do not change while the server runs (a restart shows edits), and building takes about half a
 * second that processes which never serve a page (most tests, workers) should not pay.
 */
export function siteContent(): SiteContent {
  built ??= buildSiteContent();
  return built;
}
