/**
 * A tiny XML writer for the ADF document: elements, attributes and text only, every value
 * escaped and stripped of characters XML 1.0 cannot carry, so no lead text can break the document.
 */

export type XmlAttrs = Readonly<Record<string, string | number | null | undefined>>;
export type XmlElement = { readonly name: string; readonly attrs: XmlAttrs; readonly content: string | readonly XmlElement[] };
type Child = XmlElement | null | undefined | false;

/** Everything outside XML 1.0's Char production: C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF. */
const invalidXmlChars = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripInvalidXmlChars(text: string): string {
  return text.replace(invalidXmlChars, '');
}

export function escapeXmlText(text: string): string {
  return stripInvalidXmlChars(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values also escape quotes and keep whitespace characters from being normalised to spaces. */
export function escapeXmlAttr(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** `el('year', {}, 2021)` is a text element; `el('vehicle', attrs, [children])` a parent (null children are skipped). */
export function el(name: string, attrs: XmlAttrs = {}, content: string | number | null | undefined | readonly Child[] = ''): XmlElement {
  if (Array.isArray(content)) {
    return { name, attrs, content: content.filter((child): child is XmlElement => Boolean(child)) };
  }
  return { name, attrs, content: content === null || content === undefined ? '' : String(content) };
}

function attrText(attrs: XmlAttrs): string {
  return Object.entries(attrs)
    .filter((entry): entry is [string, string | number] => entry[1] !== null && entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXmlAttr(String(value))}"`)
    .join('');
}

/** Two-space indented; text elements stay on one line (their text keeps its own line breaks). */
export function serializeXml(node: XmlElement, depth = 0): string {
  const pad = '  '.repeat(depth);
  const open = `${pad}<${node.name}${attrText(node.attrs)}>`;
  if (typeof node.content === 'string') return `${open}${escapeXmlText(node.content)}</${node.name}>`;
  if (node.content.length === 0) return `${open}</${node.name}>`;
  const inner = node.content.map((child) => serializeXml(child, depth + 1)).join('\n');
  return `${open}\n${inner}\n${pad}</${node.name}>`;
}
