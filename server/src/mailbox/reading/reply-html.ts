import { DomUtils, parseDocument } from 'htmlparser2';

type Element = ReturnType<typeof DomUtils.findAll>[number];
type Node = Parameters<typeof DomUtils.removeElement>[0];

/** Larger HTML is returned as it is: parsing it costs more than an agent gains. */
const MAX_HTML = 2_000_000;

/** Classes of the containers clients wrap quoted history and signatures in. */
const QUOTE_CLASSES = new Set([
  'gmail_quote', // Gmail (the attribution line, div.gmail_attr, is inside)
  'gmail_quote_container',
  'gmail_signature',
  'moz-cite-prefix', // Thunderbird's "On … wrote:" above its blockquote
  'moz-signature',
  'yahoo_quoted',
  'protonmail_quote',
  'zmail_extra', // Zoho
]);
const SIGNATURE_IDS = new Set(['signature', 'ms-outlook-mobile-signature', 'ymail_android_signature']);
/** Where Outlook (web, new and desktop) starts the quoted message: everything below is history. */
const CUT_IDS = new Set([
  'appendonsend',
  'divrplyfwdmsg',
  'stopspelling',
  'mail-editor-reference-message-container',
]);
const OUTLOOK_FROM = /^\s*(?:from|von|de|da|van|från|fra|od|от)\s*:/i;

function classesOf(element: Element): string[] {
  return (element.attribs.class ?? '').toLowerCase().split(/\s+/);
}

function isQuoteOrSignature(element: Element): boolean {
  if (element.name === 'blockquote' && element.attribs.type?.toLowerCase() === 'cite') return true; // Apple Mail, Thunderbird
  if (classesOf(element).some((name) => QUOTE_CLASSES.has(name))) return true;
  if (element.attribs['data-smartmail'] === 'gmail_signature') return true;
  return SIGNATURE_IDS.has((element.attribs.id ?? '').toLowerCase());
}

function isCutMarker(element: Element): boolean {
  if (CUT_IDS.has((element.attribs.id ?? '').toLowerCase())) return true;
  // Outlook desktop: a div with a thin top border holding "From: … Sent: …".
  const style = (element.attribs.style ?? '').toLowerCase().replace(/\s+/g, '');
  return (
    element.name === 'div' &&
    style.includes('border-top:solid') &&
    OUTLOOK_FROM.test(DomUtils.textContent(element).slice(0, 200))
  );
}

/** Removes `node` and everything after it in document order. */
function cutFrom(node: Node): void {
  let current: Node | null = node;
  while (current) {
    while (current.next) DomUtils.removeElement(current.next);
    const parent: Node | null = current.parent as Node | null;
    if (current === node) DomUtils.removeElement(current);
    current = parent && parent.type !== 'root' ? parent : null;
  }
}

const INVISIBLE = new Set(['style', 'script', 'title', 'head']);

/** Any text outside style/script/head, or an image, is left. */
function hasVisibleContent(nodes: Node[]): boolean {
  if (DomUtils.findOne((element) => element.name === 'img', nodes)) return true;
  return DomUtils.filter((node) => node.type === 'text', nodes).some((node) => {
    for (let parent = node.parent; parent; parent = parent.parent) {
      if ('name' in parent && INVISIBLE.has(parent.name)) return false;
    }
    return 'data' in node && node.data.replace(/&nbsp;|&#160;|\s/gi, '').length > 0;
  });
}

/**
 * The new part of an HTML reply: quote containers (Gmail's `gmail_quote`, Apple Mail's and
 * Thunderbird's `blockquote type=cite`, Yahoo, Proton, Zoho) and signature containers are
 * removed, and from Outlook's `divRplyFwdMsg` (or its desktop header block) on everything is
 * cut. A plain `<blockquote>` stays: people use it to quote on purpose. Markup is kept as sent
 * (entities untouched). Empty when nothing visible is left.
 */
export function extractReplyHtml(html: string | null | undefined): string | null {
  if (html === null || html === undefined) return null;
  if (html.length > MAX_HTML) return html;
  const document = parseDocument(html, { decodeEntities: false });
  const cut = DomUtils.findOne(isCutMarker, document.children);
  if (cut) cutFrom(cut);
  const quotes = DomUtils.findAll(isQuoteOrSignature, document.children);
  if (!cut && quotes.length === 0) return html;
  for (const quote of quotes) DomUtils.removeElement(quote);
  if (!hasVisibleContent(document.children)) return '';
  return DomUtils.getOuterHTML(document, { decodeEntities: false }).trim();
}
