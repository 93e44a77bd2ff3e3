import { posix } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../../core/html.ts';

/** A Markdown file rendered for the site. */
export interface RenderedMarkdown {
  /** The first level-1 heading's text, if any. */
  title: string | null;
  /** The first paragraph as plain text (for the landing page's cards). */
  summary: string;
  /** The body, without the first level-1 heading (the page template shows the title). */
  html: string;
  /** The level-2 headings, for the page's "On this page" list. */
  sections: { id: string; text: string }[];
}

/** How a link in one repository file reaches another: its page on the site, or nothing. */
export type LinkResolver = (repoPath: string) => string | null;

/** `Allow and block lists` → `allow-and-block-lists`, as GitHub names heading anchors. */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The visible text of rendered inline HTML (tags dropped, the entities marked writes decoded). */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

function decoded(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Renders `source` (the file at `repoPath` in the repository). Relative links are resolved against
 * the file's folder and rewritten to the page serving the target (keeping the `#anchor`); a link to
 * a file the site does not serve becomes plain text naming the file, so no link on the site is dead.
 */
export function renderMarkdown(source: string, repoPath: string, resolve: LinkResolver): RenderedMarkdown {
  const used = new Map<string, number>();
  const sections: RenderedMarkdown['sections'] = [];
  let title: string | null = null;
  let summary = '';

  const target = (href: string): string | null => {
    if (EXTERNAL.test(href) || href.startsWith('#')) return href;
    const [path = '', anchor] = href.split('#', 2);
    const repoTarget = path.startsWith('/')
      ? posix.normalize(path.slice(1))
      : posix.normalize(posix.join(posix.dirname(repoPath), decoded(path)));
    const page = resolve(repoTarget);
    if (!page) return null;
    return anchor ? `${page}#${anchor}` : page;
  };

  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        const text = textOf(inner);
        if (depth === 1 && title === null) {
          title = text;
          return '';
        }
        const base = slugOf(text) || 'section';
        const seen = used.get(base) ?? 0;
        used.set(base, seen + 1);
        const id = seen === 0 ? base : `${base}-${seen}`;
        if (depth === 2) sections.push({ id, text });
        return `<h${depth} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}" aria-hidden="true" tabindex="-1">#</a>${inner}</h${depth}>\n`;
      },
      paragraph({ tokens }: Tokens.Paragraph) {
        const inner = this.parser.parseInline(tokens);
        if (!summary) summary = textOf(inner).replace(/\s+/g, ' ').trim();
        return `<p>${inner}</p>\n`;
      },
      link({ href, title: linkTitle, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens);
        const resolved = target(href);
        if (resolved === null)
          return `<span class="repo-ref" title="${escapeHtml(href)} in the repository">${inner}</span>`;
        const external = EXTERNAL.test(resolved);
        const titleAttribute = linkTitle ? ` title="${escapeHtml(linkTitle)}"` : '';
        const rel = external ? ' rel="noopener noreferrer"' : '';
        return `<a href="${escapeHtml(resolved)}"${titleAttribute}${rel}>${inner}</a>`;
      },
      image({ href, text }: Tokens.Image) {
        // Pictures come only from the site itself (its CSP allows no other origin); others show their description.
        const resolved = target(href);
        if (resolved === null || EXTERNAL.test(resolved))
          return `<span class="repo-ref">${escapeHtml(text)}</span>`;
        return `<img src="${escapeHtml(resolved)}" alt="${escapeHtml(text)}" loading="lazy">`;
      },
    },
  });

  const html = marked.parse(source, { async: false });
  return { title, summary, html, sections };
}
