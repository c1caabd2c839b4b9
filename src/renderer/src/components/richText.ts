/** The elements the rich-text editor keeps (Tiptap's StarterKit as configured); anything else it would drop. */
const KEPT_ELEMENTS = new Set([
  'P',
  'BR',
  'STRONG',
  'B',
  'EM',
  'I',
  'U',
  'S',
  'STRIKE',
  'CODE',
  'PRE',
  'BLOCKQUOTE',
  'UL',
  'OL',
  'LI',
  'H2',
  'H3',
  'HR',
  'A',
]);
const KEPT_ATTRIBUTES: Record<string, Set<string>> = { A: new Set(['href', 'target', 'rel']) };

/**
 * Whether the rich-text editor can show this HTML without losing any of it. A description written elsewhere
 * (a WordPress site: images, tables, classes, other headings) is edited as HTML source instead, so that saving
 * never silently deletes what the editor does not know.
 */
export function richTextKeepsAll(html: string): boolean {
  if (!html.trim()) return true;
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  for (const element of body.querySelectorAll('*')) {
    if (!KEPT_ELEMENTS.has(element.tagName)) return false;
    const allowed = KEPT_ATTRIBUTES[element.tagName];
    for (const attribute of element.getAttributeNames()) if (!allowed?.has(attribute)) return false;
  }
  return true;
}
