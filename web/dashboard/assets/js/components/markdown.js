// Markdown shown as formatted text (scenario scripts and the like). marked does not sanitise, so the
// text is made safe twice: raw HTML in the source is rendered as visible text, links keep only
// http(s)/mailto targets and images become their alt text (nothing is fetched); then the output is
// walked and anything outside a short list of tags and attributes is dropped before it is shown.
import { Marked } from '/dashboard-assets/vendor/marked.js';
import { html, useMemo } from '../lib.js';

const escapeHtml = (text) =>
  String(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const SAFE_URL = /^(https?:|mailto:)/i;

const markdown = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    // The page has its own h1 and section h2s: the text's headings go below them.
    heading({ tokens, depth }) {
      const level = Math.min(6, depth + 2);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    html: ({ text }) => escapeHtml(text),
    image: ({ text }) => escapeHtml(text),
    link({ href, title, tokens }) {
      const label = this.parser.parseInline(tokens);
      if (!SAFE_URL.test(String(href ?? '').trim())) return label;
      const titleAttribute = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${titleAttribute} rel="noopener noreferrer" target="_blank">${label}</a>`;
    },
  },
});

const ALLOWED_TAGS = new Set(
  'a p br hr h1 h2 h3 h4 h5 h6 ul ol li strong em del code pre blockquote table thead tbody tr th td input'.split(
    ' ',
  ),
);
const ALLOWED_ATTRIBUTES = {
  a: ['href', 'title', 'rel', 'target'],
  ol: ['start'],
  input: ['type', 'checked', 'disabled'],
  th: ['align'],
  td: ['align'],
};

/** Drops every element and attribute not on the lists (keeping the text of dropped elements). */
function sanitise(root) {
  for (const element of [...root.querySelectorAll('*')]) {
    const tag = element.tagName.toLowerCase();
    if (!ALLOWED_TAGS.has(tag) || (tag === 'input' && element.getAttribute('type') !== 'checkbox')) {
      element.replaceWith(document.createTextNode(element.textContent ?? ''));
      continue;
    }
    const keep = ALLOWED_ATTRIBUTES[tag] ?? [];
    for (const attribute of [...element.attributes]) {
      if (!keep.includes(attribute.name)) element.removeAttribute(attribute.name);
    }
    if (tag === 'a' && !SAFE_URL.test(element.getAttribute('href') ?? '')) element.removeAttribute('href');
    if (tag === 'input') element.setAttribute('disabled', '');
  }
  return root.innerHTML;
}

/** Safe HTML for a Markdown text. */
export function markdownToSafeHtml(text) {
  // A template's content is inert: nothing in it runs or loads while it is cleaned.
  const template = document.createElement('template');
  template.innerHTML = `<div>${markdown.parse(String(text ?? ''), { async: false })}</div>`;
  return sanitise(template.content.firstElementChild);
}

/** A Markdown text drawn as formatted prose; `empty` when there is nothing to show. */
export function Markdown({ text, empty = 'Nothing to preview yet.' }) {
  const safe = useMemo(() => (text?.trim() ? markdownToSafeHtml(text) : null), [text]);
  if (!safe) return html`<p class="muted">${empty}</p>`;
  return html`<div class="prose markdown" dangerouslySetInnerHTML=${{ __html: safe }}></div>`;
}
