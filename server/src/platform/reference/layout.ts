import { escapeHtml } from '../../core/html.ts';
import type { SiteDocument } from './documents.ts';

export const ASSET_PREFIX = '/docs/assets/';

/** The top navigation's entries; a page names the one it belongs to. */
const NAVIGATION = [
  { key: 'home', href: '/docs', label: 'Overview' },
  { key: 'platform', href: '/docs/api/platform', label: 'Platform API' },
  { key: 'mailbox', href: '/docs/api/mailbox', label: 'Mailbox API' },
  { key: 'errors', href: '/docs/errors', label: 'Errors' },
  { key: 'guides', href: '/docs/guides/api-conventions', label: 'Guides' },
  { key: 'changelog', href: '/docs/changelog/platform', label: 'Changelog' },
  { key: 'sdks', href: '/docs/sdks/node', label: 'SDKs' },
] as const;

export type NavigationKey = (typeof NAVIGATION)[number]['key'];

export interface PageOptions {
  title: string;
  current: NavigationKey;
  /** The page's main content (already HTML). */
  main: string;
  /** A side navigation (already HTML); pages without one use the full width. */
  sidebar?: string;
  /** Extra stylesheets and scripts (site addresses; scripts are classic, deferred, in this order). */
  stylesheets?: string[];
  scripts?: string[];
  bodyClass?: string;
}

/** The shell of every page: skip link, top navigation, optional side navigation, content, footer. */
export function page(options: PageOptions): string {
  const navigation = NAVIGATION.map(
    (entry) =>
      `<a href="${entry.href}"${entry.key === options.current ? ' aria-current="page"' : ''}>${entry.label}</a>`,
  ).join('');
  // The site's stylesheet last: it adjusts the renderer's.
  const stylesheets = [...(options.stylesheets ?? []), `${ASSET_PREFIX}reference.css`]
    .map((href) => `<link rel="stylesheet" href="${href}">`)
    .join('\n');
  const scripts = (options.scripts ?? []).map((src) => `<script src="${src}" defer></script>`).join('\n');
  const sidebar = options.sidebar
    ? `<nav class="sidebar" aria-label="Documentation">${options.sidebar}</nav>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Understudy docs</title>
<link rel="icon" href="${ASSET_PREFIX}favicon.svg" type="image/svg+xml">
${stylesheets}
${scripts}
</head>
<body class="${options.bodyClass ?? ''}">
<a class="skip-link" href="#content">Skip to content</a>
<header class="topbar">
<a class="brand" href="/docs"><span class="brand-mark" aria-hidden="true">U</span>Understudy <span class="brand-sub">Developers</span></a>
<nav class="topnav" aria-label="Main">${navigation}</nav>
</header>
<div class="${options.sidebar ? 'shell' : 'shell shell-wide'}">
${sidebar}
<main id="content" tabindex="-1">
${options.main}
</main>
</div>
<footer class="footer"><p>Understudy API reference · served by this server, no external requests · <a href="/v1/openapi.json">platform OpenAPI document</a> · <a href="/docs/openapi/mailbox-v0.json">mailbox OpenAPI document</a></p></footer>
</body>
</html>
`;
}

// The short groups first, so they stay in sight above the long list of guides.
const GROUP_HEADINGS: Array<[SiteDocument['group'], string]> = [
  ['sdk', 'SDKs'],
  ['changelog', 'Changelog'],
  ['guide', 'Guides'],
  ['decision', 'Decision records'],
];

/** The side navigation of document pages: every document by group, and the current page's sections. */
export function documentSidebar(
  documents: Iterable<SiteDocument>,
  currentUrl: string,
  sections: { id: string; text: string }[] = [],
): string {
  const all = [...documents];
  const groups = GROUP_HEADINGS.map(([group, heading]) => {
    const members = all.filter((document) => document.group === group);
    if (members.length === 0) return '';
    const links = members
      .map(
        (document) =>
          `<li><a href="${document.url}"${document.url === currentUrl ? ' aria-current="page"' : ''}>${escapeHtml(document.title)}</a></li>`,
      )
      .join('');
    const list = `<ul>${links}</ul>`;
    // Decision records are many and secondary: folded unless one of them is open.
    if (group === 'decision') {
      const open = members.some((document) => document.url === currentUrl) ? ' open' : '';
      return `<details class="nav-group"${open}><summary>${heading}</summary>${list}</details>`;
    }
    return `<div class="nav-group"><h2>${heading}</h2>${list}</div>`;
  }).join('');
  const onThisPage =
    sections.length > 0
      ? `<div class="nav-group on-this-page"><h2>On this page</h2><ul>${sections
          .map((section) => `<li><a href="#${escapeHtml(section.id)}">${escapeHtml(section.text)}</a></li>`)
          .join('')}</ul></div>`
      : '';
  return onThisPage + groups;
}
