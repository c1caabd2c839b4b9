import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

/** The namespaces CalDAV speaks (RFC 4918, RFC 4791, the calendarserver.org extensions clients ask for). */
export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const CALSERVER = 'http://calendarserver.org/ns/';
export const APPLE_ICAL = 'http://apple.com/ns/ical/';

/** An element of a request body, its name resolved to its namespace. */
export interface XmlElement {
  ns: string;
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** A request body CalDAV cannot read: answered 400 with the message (or 403 for a DOCTYPE). */
export class XmlRefused extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

// Entities are never expanded (no billion laughs): a body declaring a DOCTYPE is refused before parsing.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  htmlEntities: false,
  trimValues: true,
  parseTagValue: false,
  parseAttributeValue: false,
});

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const STANDARD_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** The five predefined entities and character references: the only ones XML without a DTD has. */
const decodeText = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return STANDARD_ENTITIES[name.toLowerCase()] ?? whole;
  });

function resolve(nodes: OrderedNode[], scope: Map<string, string>): XmlElement[] {
  const elements: XmlElement[] = [];
  for (const node of nodes) {
    const tag = Object.keys(node).find((key) => key !== ':@');
    if (!tag || tag === '#text' || tag.startsWith('?')) continue;
    const attributes = node[':@'] ?? {};
    const inner = new Map(scope);
    for (const [key, value] of Object.entries(attributes)) {
      if (key === 'xmlns') inner.set('', value);
      else if (key.startsWith('xmlns:')) inner.set(key.slice(6), value);
    }
    const colon = tag.indexOf(':');
    const prefix = colon >= 0 ? tag.slice(0, colon) : '';
    const name = colon >= 0 ? tag.slice(colon + 1) : tag;
    const ns = inner.get(prefix);
    if (ns === undefined && prefix) throw new XmlRefused(`The XML prefix "${prefix}" is not declared.`);
    const content = (node[tag] as OrderedNode[]) ?? [];
    const text = content
      .filter((child) => '#text' in child)
      .map((child) => decodeText(String(child['#text'])))
      .join('');
    elements.push({ ns: ns ?? '', name, attributes, children: resolve(content, inner), text });
  }
  return elements;
}

/** Parses a request body into its root element; malformed XML and DTDs (entity declarations) are refused. */
export function parseXml(body: string): XmlElement | null {
  if (body.trim() === '') return null;
  if (/<!DOCTYPE|<!ENTITY/i.test(body))
    throw new XmlRefused(
      'XML with a DOCTYPE or entity declarations is refused: CalDAV requests need neither.',
      403,
    );
  const valid = XMLValidator.validate(body);
  if (valid !== true)
    throw new XmlRefused(
      `The request body is not well-formed XML (line ${valid.err.line}: ${valid.err.msg}).`,
    );
  const [root] = resolve(parser.parse(body) as OrderedNode[], new Map());
  if (!root) throw new XmlRefused('The request body holds no XML element.');
  return root;
}

/** The first child named `name` in namespace `ns`. */
export const child = (element: XmlElement | undefined, ns: string, name: string) =>
  element?.children.find((one) => one.ns === ns && one.name === name);

export const childrenNamed = (element: XmlElement | undefined, ns: string, name: string) =>
  element?.children.filter((one) => one.ns === ns && one.name === name) ?? [];

/** What an answer's element holds: text, child elements, or nothing. */
export type XmlValue = string | XmlOut[] | null;
export interface XmlOut {
  ns: string;
  name: string;
  value: XmlValue;
  attributes?: Record<string, string>;
}

export const el = (
  ns: string,
  name: string,
  value: XmlValue = null,
  attributes?: Record<string, string>,
): XmlOut => ({ ns, name, value, ...(attributes ? { attributes } : {}) });

const PREFIXES: Record<string, string> = {
  [DAV]: 'd',
  [CALDAV]: 'c',
  [CALSERVER]: 'cs',
  [APPLE_ICAL]: 'ical',
};

const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  suppressEmptyNode: true,
  processEntities: true,
});

type BuiltNode = Record<string, unknown>;

function toBuilt(element: XmlOut): BuiltNode {
  const prefix = PREFIXES[element.ns];
  const tag = prefix ? `${prefix}:${element.name}` : `x:${element.name}`;
  const content =
    element.value === null
      ? []
      : typeof element.value === 'string'
        ? [{ '#text': element.value }]
        : element.value.map(toBuilt);
  const attributes = { ...(prefix ? {} : { 'xmlns:x': element.ns }), ...element.attributes };
  return { [tag]: content, ...(Object.keys(attributes).length ? { ':@': attributes } : {}) };
}

/** An answer document: the root element with the namespaces CalDAV uses declared once. */
export function buildXml(root: XmlOut): string {
  const built = toBuilt(root);
  built[':@'] = Object.fromEntries(Object.entries(PREFIXES).map(([ns, prefix]) => [`xmlns:${prefix}`, ns]));
  return `<?xml version="1.0" encoding="utf-8"?>\n${builder.build([built])}`;
}
