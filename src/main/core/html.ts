import { createRequire } from 'node:module';
import { loadInParts } from './modulesInParts';
import { decodeHTML } from 'entities';
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
  let clean = sanitize(html, RICH_TEXT);
  // What sanitize-html writes from broken markup can itself parse differently (`<p><A</p><p>` gives
  // `<p><p></p></p>`, whose inner <p> closes the outer one): sanitized again until it stays as it is, so that
  // saving a text a second time never changes it. A text it left alone is stable at once.
  for (let round = 0; clean !== html && round < 4; round++) {
    const again = sanitize(clean, RICH_TEXT);
    if (again === clean) break;
    clean = again;
  }
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
    else if (!/\s/.test(c!)) afterEquals = false;
  }
  return text.length; // unterminated tag: drop the rest, like PHP strip_tags
}

type HtmlParser = typeof import('htmlparser2').Parser;
let htmlParser: HtmlParser | undefined;
/** htmlparser2 (sanitize-html's own parser), loaded on first use like sanitize-html. */
const parserClass = (): HtmlParser =>
  (htmlParser ??= (load('htmlparser2') as typeof import('htmlparser2')).Parser);

/**
 * Loads sanitize-html and htmlparser2 now (see `preloadWritePath`), so that the first write does not wait: their
 * largest parts one per turn of the event loop (some 35-100 ms in one piece; a module already loaded is
 * taken from Node's cache by the next), so that a request arriving meanwhile waits for one part at most.
 */
export async function preloadHtmlModules(): Promise<void> {
  await loadInParts(
    ['entities', 'domutils', 'dom-serializer', 'htmlparser2', 'postcss'].map((part) => [null, part]),
  );
  sanitizer ??= load('sanitize-html') as typeof sanitizeHtml;
  parserClass();
}

/** Elements whose content is not text anyone reads. */
const UNREAD = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'svg',
  'math',
  'head',
]);
/** Elements that start a line of their own. */
const LINES = new Set(['div', 'li', 'tr', 'dt', 'dd', 'figcaption', 'caption', 'hr']);
/** Elements set apart by a blank line. */
const PARAGRAPHS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'blockquote', 'pre', 'table', 'figure',
]); // prettier-ignore

/** ` (address)` after a link's text, unless the text already shows where it points. */
function linkTarget(href: string, text: string): string {
  if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return '';
  const shown = href.replace(/^(mailto|tel):/i, '');
  const bare = (value: string) =>
    withoutTrailing(value, '/')
      .replace(/^[a-z]+:(\/\/)?/i, '')
      .toLowerCase();
  return text.trim() === '' || bare(text).includes(bare(shown)) ? '' : ` (${shown})`;
}

/**
 * HTML as plain text, for what shows text as it is (the .ics export, json_ld): entities decoded (`Rock &amp;
 * Roll` → `Rock & Roll`), paragraphs, list items and line breaks kept as line breaks, HTML's other white
 * space collapsed, and links keep where they point (`<a href="https://x.org">site</a>` → `site
 * (https://x.org)`). Text without tags keeps its line breaks. Trimmed.
 */
export function htmlToText(html: string): string {
  if (!/<[a-z!/?]/i.test(html)) return decodeHtmlEntities(html).trim();
  const Parser = parserClass();
  const out = new TextBuilder();
  let unread = 0;
  let preformatted = 0;
  const links: Array<{ href: string; start: number }> = [];
  const breakLine = (blank: boolean) => {
    out.trimEnd(' \t');
    if (out.length > 0 && !out.endsWith('\n')) out.append('\n');
    if (blank && out.length > 0 && !out.endsWith('\n\n')) out.append('\n');
  };
  const parser = new Parser({
    onopentag(name, attributes) {
      if (UNREAD.has(name)) unread++;
      if (unread) return;
      if (name === 'br') out.append('\n');
      else if (LINES.has(name)) breakLine(false);
      else if (PARAGRAPHS.has(name)) breakLine(true);
      if (name === 'pre') preformatted++;
      if (name === 'li') out.append('- ');
      if (name === 'a') links.push({ href: (attributes.href ?? '').trim(), start: out.length });
    },
    ontext(text) {
      if (unread) return;
      if (preformatted) out.append(text);
      else {
        const collapsed = text.replace(/\s+/g, ' ');
        out.append(
          out.length === 0 || out.endsWith(' ') || out.endsWith('\n') ? collapsed.trimStart() : collapsed,
        );
      }
    },
    onclosetag(name) {
      if (UNREAD.has(name)) unread = Math.max(0, unread - 1);
      else if (unread) return;
      else if (name === 'a') {
        const link = links.pop();
        if (link) out.append(linkTarget(link.href, out.textFrom(link.start)));
      } else if (LINES.has(name)) breakLine(false);
      else if (PARAGRAPHS.has(name)) breakLine(true);
      if (name === 'pre') preformatted = Math.max(0, preformatted - 1);
    },
  });
  parser.write(html);
  parser.end();
  return out
    .toString()
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => withoutTrailing(line, ' \t'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Text built by appending, whose end can be read and trimmed while it grows. Kept in pieces: reading the end
 * of one long string built with `+=` makes V8 copy it whole each time, so a description of many short
 * paragraphs took seconds to turn into text.
 */
class TextBuilder {
  private readonly pieces: string[] = [];
  /** Where each piece starts in the whole text. */
  private readonly starts: number[] = [];
  length = 0;

  append(text: string): void {
    if (text === '') return;
    this.pieces.push(text);
    this.starts.push(this.length);
    this.length += text.length;
  }

  /** Whether the text ends with `suffix` (a few characters). */
  endsWith(suffix: string): boolean {
    let tail = '';
    for (let i = this.pieces.length - 1; i >= 0 && tail.length < suffix.length; i--)
      tail = this.pieces[i] + tail;
    return tail.endsWith(suffix);
  }

  /** Removes the `characters` the text ends with. */
  trimEnd(characters: string): void {
    while (this.pieces.length > 0) {
      const last = this.pieces.at(-1)!;
      const trimmed = withoutTrailing(last, characters);
      this.length -= last.length - trimmed.length;
      if (trimmed !== '') {
        this.pieces[this.pieces.length - 1] = trimmed;
        return;
      }
      this.pieces.pop();
      this.starts.pop();
    }
  }

  /** The text from offset `start` on. */
  textFrom(start: number): string {
    let i = this.pieces.length;
    while (i > 0 && this.starts[i - 1]! + this.pieces[i - 1]!.length > start) i--;
    if (i === this.pieces.length) return '';
    const first = this.pieces[i]!;
    return first.slice(Math.max(0, start - this.starts[i]!)) + this.pieces.slice(i + 1).join('');
  }

  toString(): string {
    return this.pieces.join('');
  }
}

/**
 * `text` without the `characters` it ends with. A scan from the end: a regex such as `[ \t]+$` retries from
 * every position of a long run that is not at the end, which made a long description take seconds.
 */
function withoutTrailing(text: string, characters: string): string {
  let end = text.length;
  while (end > 0 && characters.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * Text with its HTML entities (`&amp;`, `&#8217;`, `&#x2019;`, every named one) as the characters they stand
 * for, by HTML's own rules (the `entities` package htmlparser2 uses); tags, if any, are left as they are.
 */
export function decodeHtmlEntities(text: string): string {
  return text.includes('&') ? decodeHTML(text) : text;
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
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
