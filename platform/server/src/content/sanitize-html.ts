/**
 * The formatted text of content pages (rich text blocks, FAQ answers), cleaned on the server before
 * it is stored: the shell shows it as html, so only a small allowlist of text markup and safe links
 * may survive (plan issue-24-content-and-home.md §2.3).
 *
 * Everything else is removed: other elements (their text kept, except the contents of script, style
 * and the like, which go with them), every attribute but a link's href and title, and any link that
 * is not http(s), mailto, tel or a path of the site. Pictures are image blocks, never inline.
 * Cleaning cleaned text changes nothing, so text can be cleaned again on publish.
 */
import sanitizeHtml from 'sanitize-html';
import type { ContentBlock } from '@dealer/contracts/content';

/** The elements formatted text may hold. */
export const richTextTags = ['p', 'br', 'h2', 'h3', 'h4', 'strong', 'em', 'b', 'i', 'u', 's', 'blockquote', 'ul', 'ol', 'li', 'a'] as const;

/** Link schemes a shopper's browser may follow; anything else (javascript:, data:, vbscript:, …) is refused. */
const allowedSchemes = ['http', 'https', 'mailto', 'tel'];

/**
 * Elements whose text goes with them: raw text a browser parses differently from markup (script,
 * style, xmp, noscript…) or that is not text a shopper reads (a form's options, an embed's fallback).
 */
const droppedWithText = [
  'script',
  'style',
  'textarea',
  'option',
  'select',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'plaintext',
  'iframe',
  'object',
  'template',
  'title',
  'svg',
  'math',
];

/** What a link does: a page of the site, another site (opened in a new tab), or an e-mail or call; null when it may not be a link. */
type LinkKind = 'site' | 'external' | 'contact' | null;

/**
 * A link's kind, read as a browser would read its (entity-decoded) href. A control character, a
 * backslash or a leading `//` is never in a link the dealer meant; browsers ignore some of them, which
 * would turn `java<tab>script:` into script or `/\evil` into another site, so such a link is dropped.
 */
function linkKind(href: string | undefined): LinkKind {
  const to = (href ?? '').trim();
  const stray = [...to].some((character) => character < ' ' || character === '\u007f' || character === '\\');
  if (to === '' || stray || to.startsWith('//')) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(to)?.[1]?.toLowerCase();
  if (scheme === undefined) return 'site';
  if (!allowedSchemes.includes(scheme)) return null;
  return scheme === 'http' || scheme === 'https' ? 'external' : 'contact';
}

const options: sanitizeHtml.IOptions = {
  allowedTags: [...richTextTags],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedClasses: {},
  allowedStyles: {},
  parseStyleAttributes: false,
  allowedSchemes,
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: droppedWithText,
  // Deeper markup is not something a dealer writes; it only makes the page slow to build.
  nestingLimit: 32,
  transformTags: {
    // The page's title is its only h1.
    h1: 'h2',
    // A link keeps only its address and title, and gets target and rel from its kind, never as sent.
    // A link that may not be one becomes a span, which is not allowed, so only its text stays.
    a: (_tagName, attribs) => {
      const kind = linkKind(attribs.href);
      if (kind === null) return { tagName: 'span', attribs: {} };
      const link: sanitizeHtml.Attributes = { href: attribs.href!.trim() };
      if (attribs.title) link.title = attribs.title;
      if (kind === 'external') Object.assign(link, { target: '_blank', rel: 'noopener noreferrer' });
      return { tagName: 'a', attribs: link };
    },
  },
};

/** Cleans formatted text a dealer wrote (or pasted) down to the allowlisted markup. Idempotent. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options);
}

/** The blocks with every html field cleaned (rich text, FAQ answers); the others as they were. */
export function sanitizeBlocks<Block extends ContentBlock>(blocks: readonly Block[]): Block[] {
  return blocks.map((block): Block => {
    if (block.type === 'rich_text') return { ...block, html: sanitizeRichText(block.html) };
    if (block.type === 'faq') {
      return { ...block, items: block.items.map((item) => ({ ...item, answer_html: sanitizeRichText(item.answer_html) })) };
    }
    return block;
  });
}
