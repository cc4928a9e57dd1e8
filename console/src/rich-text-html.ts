// Formatted text in and out of a Lexical editor as the small html the site keeps: the tags the server's
// sanitiser allows (platform/server/src/content/sanitize-html.ts) that the toolbar can make. Loaded
// with the rich-text editor only, never in the console's first load.
import {
  $createParagraphNode,
  $getRoot,
  $insertNodes,
  TextNode,
  type DOMExportOutputMap,
  type LexicalEditor,
  type LexicalNode,
  type TextFormatType,
} from 'lexical';
import { $generateHtmlFromNodes, $generateNodesFromDOM } from '@lexical/html';
import { LinkNode } from '@lexical/link';
import { ListItemNode, ListNode } from '@lexical/list';
import { HeadingNode, QuoteNode } from '@lexical/rich-text';

/** The nodes an editor needs for every tag of the toolbar. */
export const richTextNodes = [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode];

/** The tags the editor writes; anything else in its output (Lexical's spans) keeps its text and loses its tag. */
const keptTags = new Set(['P', 'H2', 'H3', 'H4', 'STRONG', 'EM', 'U', 'S', 'A', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'BR']);
const inlineTags = new Set(['STRONG', 'EM', 'U', 'S']);
/** The page's title is its only h1, and the site styles headings 2 to 4: pasted headings become the nearest of those. */
const renamedHeadings: Record<string, string> = { H1: 'h2', H5: 'h4', H6: 'h4' };
/** Innermost first: a bold italic word is written <strong><em>word</em></strong>, always in this order. */
const textFormats: [TextFormatType, string][] = [
  ['strikethrough', 's'],
  ['underline', 'u'],
  ['italic', 'em'],
  ['bold', 'strong'],
];

/**
 * A run of text as plain nested tags: Lexical's own export wraps it in a styled span inside <b>/<i>
 * (`<i><b><strong style=…>`), which the site would keep only partly once sanitised.
 */
const exportText = (_editor: LexicalEditor, node: LexicalNode) => {
  const text = node as TextNode;
  let out: HTMLElement | Text = document.createTextNode(text.getTextContent());
  for (const [format, tag] of textFormats)
    if (text.hasFormat(format)) {
      const element = document.createElement(tag);
      element.append(out);
      out = element;
    }
  return { element: out };
};

/** The editor's html configuration (LexicalComposer's `initialConfig.html`). */
export const richTextHtmlConfig: { export: DOMExportOutputMap } = { export: new Map([[TextNode, exportText]]) };

/** Merges <strong>a</strong><strong>b</strong> (two runs of text with the same format) into one element. */
function mergeSiblings(parent: Node) {
  let child = parent.firstChild;
  while (child) {
    const next: ChildNode | null = child.nextSibling;
    const previous = child.previousSibling;
    if (
      previous instanceof HTMLElement &&
      child instanceof HTMLElement &&
      inlineTags.has(child.tagName) &&
      child.tagName === previous.tagName
    ) {
      previous.append(...child.childNodes);
      child.remove();
      mergeSiblings(previous);
    }
    child = next;
  }
}

/** Every element keeps only the tags and the one attribute (a link's href) the site keeps; others give up their children. */
function tidy(parent: Node) {
  for (const child of [...parent.childNodes]) {
    if (!(child instanceof HTMLElement)) continue;
    tidy(child);
    const heading = renamedHeadings[child.tagName];
    if (heading) {
      const renamed = document.createElement(heading);
      renamed.append(...child.childNodes);
      child.replaceWith(renamed);
      continue;
    }
    if (!keptTags.has(child.tagName)) {
      child.replaceWith(...child.childNodes);
      continue;
    }
    for (const attribute of [...child.attributes])
      if (!(child.tagName === 'A' && attribute.name === 'href')) child.removeAttribute(attribute.name);
  }
  mergeSiblings(parent);
}

/** Lexical's exported html as the site keeps it. */
export function tidyRichTextHtml(html: string): string {
  const box = document.createElement('template');
  box.innerHTML = html;
  tidy(box.content);
  return box.innerHTML;
}

/** Replaces what the editor holds with the html (inside `editor.update`). */
export function $importRichText(editor: LexicalEditor, html: string) {
  const root = $getRoot();
  root.clear();
  // An empty editor still holds one paragraph, so there is somewhere to type.
  if (!html.trim()) return void root.append($createParagraphNode());
  const nodes = $generateNodesFromDOM(editor, new DOMParser().parseFromString(html, 'text/html'));
  root.select();
  $insertNodes(nodes);
}

/** The editor's text as html, or '' when it holds no text (so an empty block stays empty, not `<p><br></p>`). */
export function $exportRichText(editor: LexicalEditor): string {
  const root = $getRoot();
  if (root.getTextContentSize() === 0 && root.getChildrenSize() <= 1) return '';
  return tidyRichTextHtml($generateHtmlFromNodes(editor, null));
}
