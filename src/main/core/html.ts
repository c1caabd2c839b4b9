import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';

// sanitize-html (with htmlparser2 and postcss) takes tens of milliseconds to load and is only needed by writes:
// it is loaded on first use, so a start answers its first (read) request sooner.
const load = createRequire(import.meta.url);
let sanitizer: typeof sanitizeHtml | undefined;
function sanitize(html: string, options: sanitizeHtml.IOptions): string {
  sanitizer ??= load('sanitize-html') as typeof sanitizeHtml;
  return sanitizer(html, options);
}

const TARGETS = ['_blank', '_self', '_parent', '_top'];

const RICH_TEXT: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'a', 'ul', 'ol', 'li',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'code', 'pre',
    'img', 'figure', 'figcaption', 'span', 'div', 'hr',
    'table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  ], // prettier-ignore
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: {},
  // Elements dropped with their content: the defaults, embedding containers, and foreign SVG/MathML content
  // (where the parser does not auto-close <p>, which made sanitizing twice differ from once).
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'template',
    'svg',
    'math',
  ],
  transformTags: {
    a: (tagName, { target, rel, ...attribs }) => {
      const frame = target?.trim().toLowerCase() ?? '';
      const rels = new Set((rel ?? '').split(/\s+/).filter(Boolean));
      if (TARGETS.includes(frame)) attribs.target = frame;
      if (frame === '_blank') rels.add('noopener').add('noreferrer');
      if (rels.size > 0) attribs.rel = [...rels].join(' ');
      return { tagName, attribs };
    },
  },
};

/**
 * Recent sanitized texts: series, imports and sync pushes send the same description again and again, and
 * sanitize-html costs tens of microseconds even for a short one. Its output depends on the input alone.
 */
const recentRichText = new Map<string, string>();
const RECENT_RICH_TEXTS = 256;
const MAX_REMEMBERED_LENGTH = 16_384;

/** Sanitizes event/venue/organizer `description`/`excerpt` HTML (CONTRACT §2): no scripts, handlers or unsafe URLs. */
export function sanitizeRichText(html: string): string {
  if (html === '') return '';
  const known = recentRichText.get(html);
  if (known !== undefined) return known;
  const clean = sanitize(html, RICH_TEXT);
  if (html.length <= MAX_REMEMBERED_LENGTH) {
    // Oldest first (insertion order): drop the oldest once full.
    if (recentRichText.size >= RECENT_RICH_TEXTS) recentRichText.delete(recentRichText.keys().next().value!);
    recentRichText.set(html, clean);
  }
  return clean;
}

/** Strips every tag (and script/style/comment content) from a title or name, leaving entities as written; trimmed. */
export function toPlainText(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, lt);
    if (!/[a-zA-Z/!?]/.test(text[lt + 1] ?? '')) {
      out += '<'; // a lone '<' (as in `a < b`) is text, not a tag
      i = lt + 1;
      continue;
    }
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    i = tagEnd(text, lt);
    const raw = /^<(script|style)[\s/>]/i.exec(text.slice(lt, lt + 8));
    if (raw) {
      const close = new RegExp(`</${raw[1]}[\\s>]`, 'ig');
      close.lastIndex = i;
      const found = close.exec(text);
      i = found ? tagEnd(text, found.index) : text.length;
    }
  }
  return out.trim();
}

/** Index just past the `>` closing the tag that starts at `start` (quoted attribute values may hold `>`). */
function tagEnd(text: string, start: number): number {
  let quote = '';
  let afterEquals = false;
  for (let j = start + 1; j < text.length; j++) {
    const c = text[j];
    if (quote) {
      if (c === quote) quote = '';
    } else if (afterEquals && (c === '"' || c === "'")) {
      quote = c;
    } else if (c === '>') {
      return j + 1;
    }
    if (c === '=') afterEquals = true;
    else if (!/\s/.test(c)) afterEquals = false;
  }
  return text.length; // unterminated tag: drop the rest, like PHP strip_tags
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Entities written by name that a decode knows (WordPress writes the others as numbers). */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '…',
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** Text with its HTML entities (`&amp;`, `&#8217;`, `&#x2019;`, the common named ones) as the characters they stand for. */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (!name.startsWith('#')) return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = /^#x/i.test(name) ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
