// The console's editor of formatted text (Lexical), loaded lazily with the first field that needs it:
// the console's first load stays without it. Its toolbar makes only what the site keeps (the server's
// sanitiser allowlist): paragraphs, headings 2 to 4, bold, italic, underline, strike, lists, quotes, links.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  $getSelection,
  $isRangeSelection,
  $isRootOrShadowRoot,
  $createParagraphNode,
  CAN_REDO_COMMAND,
  CAN_UNDO_COMMAND,
  COMMAND_PRIORITY_LOW,
  FORMAT_TEXT_COMMAND,
  REDO_COMMAND,
  UNDO_COMMAND,
  type EditorState,
  type ElementNode,
  type LexicalEditor,
  type TextFormatType,
} from 'lexical';
import { $isLinkNode, TOGGLE_LINK_COMMAND } from '@lexical/link';
import {
  $isListItemNode,
  $isListNode,
  INSERT_ORDERED_LIST_COMMAND,
  INSERT_UNORDERED_LIST_COMMAND,
  REMOVE_LIST_COMMAND,
} from '@lexical/list';
import { LexicalComposer } from '@lexical/react/LexicalComposer';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { ListPlugin } from '@lexical/react/LexicalListPlugin';
import { OnChangePlugin } from '@lexical/react/LexicalOnChangePlugin';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import { $createHeadingNode, $createQuoteNode, $isHeadingNode, $isQuoteNode } from '@lexical/rich-text';
import { $findMatchingParent, $getNearestBlockElementAncestorOrThrow, mergeRegister } from '@lexical/utils';
import { $exportRichText, $importRichText, richTextHtmlConfig, richTextNodes } from './rich-text-html';

export type RichTextEditorProps = {
  /** The html the editor starts with; read once (the editor keeps its own text from then on). */
  html: string;
  onChange: (html: string) => void;
  /** The id of the element naming the field (its label). */
  labelledBy: string;
  /** The id of the field's error, when it has one. */
  describedBy?: string;
  readOnly?: boolean;
};

type BlockStyle = 'paragraph' | 'h2' | 'h3' | 'h4' | 'quote' | 'bullet' | 'number';
const styles: { value: 'paragraph' | 'h2' | 'h3' | 'h4'; label: string }[] = [
  { value: 'paragraph', label: 'Paragraph' },
  { value: 'h2', label: 'Heading 2' },
  { value: 'h3', label: 'Heading 3' },
  { value: 'h4', label: 'Heading 4' },
];
const formats: { format: TextFormatType; label: string; mark: string }[] = [
  { format: 'bold', label: 'Bold', mark: 'B' },
  { format: 'italic', label: 'Italic', mark: 'I' },
  { format: 'underline', label: 'Underline', mark: 'U' },
  { format: 'strikethrough', label: 'Strikethrough', mark: 'S' },
];
/** What a link may point at (the server checks again): a page of the site, a web address, an e-mail or a phone number. */
const linkAddress = /^(?:\/(?!\/)|https?:\/\/[^\s/]|mailto:|tel:)\S*$/i;
export const linkRefusal = 'A link goes to a page of the site (/about), a web address (https://…), mailto: or tel:.';

/** The blocks the selection touches: each paragraph, heading, quote or list item, never a whole list. */
function $selectedBlocks(): ElementNode[] {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return [];
  const blocks = new Map<string, ElementNode>();
  for (const node of [selection.anchor.getNode(), selection.focus.getNode(), ...selection.getNodes()]) {
    if ($isRootOrShadowRoot(node)) continue;
    const block = $getNearestBlockElementAncestorOrThrow(node);
    if (!$isRootOrShadowRoot(block) && !$isListNode(block)) blocks.set(block.getKey(), block);
  }
  return [...blocks.values()];
}

/** The style of the block holding the cursor. */
function $styleAtCursor(): BlockStyle {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return 'paragraph';
  const node = selection.anchor.getNode();
  if ($isRootOrShadowRoot(node)) return 'paragraph';
  const block = $getNearestBlockElementAncestorOrThrow(node);
  if ($isHeadingNode(block)) {
    const tag = block.getTag();
    return tag === 'h2' || tag === 'h3' || tag === 'h4' ? tag : 'paragraph';
  }
  if ($isQuoteNode(block)) return 'quote';
  if ($isListItemNode(block)) {
    const list = block.getParent();
    return $isListNode(list) && list.getListType() === 'number' ? 'number' : 'bullet';
  }
  return 'paragraph';
}

/** Turns each selected block into a paragraph, a heading or a quote, keeping its text (a list item leaves its list). */
function setBlockStyle(editor: LexicalEditor, style: 'paragraph' | 'h2' | 'h3' | 'h4' | 'quote') {
  editor.update(() => {
    for (const block of $selectedBlocks())
      block.replace(
        style === 'paragraph' ? $createParagraphNode() : style === 'quote' ? $createQuoteNode() : $createHeadingNode(style),
        true,
      );
  });
}

function Toolbar({ onRefusal }: { onRefusal: (message: string) => void }) {
  const [editor] = useLexicalComposerContext();
  const [style, setStyle] = useState<BlockStyle>('paragraph');
  const [active, setActive] = useState<Set<TextFormatType>>(new Set());
  const [link, setLink] = useState<string | null>(null);
  const [canUndo, setCanUndo] = useState(false);
  const [canRedo, setCanRedo] = useState(false);

  const read = useCallback(() => {
    const selection = $getSelection();
    setStyle($styleAtCursor());
    setActive(
      new Set($isRangeSelection(selection) ? formats.map((one) => one.format).filter((format) => selection.hasFormat(format)) : []),
    );
    const linkNode = $isRangeSelection(selection) ? $findMatchingParent(selection.anchor.getNode(), $isLinkNode) : null;
    setLink($isLinkNode(linkNode) ? linkNode.getURL() : null);
  }, []);

  useEffect(
    () =>
      mergeRegister(
        editor.registerUpdateListener(({ editorState }) => editorState.read(read)),
        editor.registerCommand(
          CAN_UNDO_COMMAND,
          (can) => {
            setCanUndo(can);
            return false;
          },
          COMMAND_PRIORITY_LOW,
        ),
        editor.registerCommand(
          CAN_REDO_COMMAND,
          (can) => {
            setCanRedo(can);
            return false;
          },
          COMMAND_PRIORITY_LOW,
        ),
      ),
    [editor, read],
  );

  const editLink = () => {
    const answer = window.prompt('Link to a page of the site (/about) or a web address (https://…). Empty: no link.', link ?? '');
    if (answer === null) return;
    const to = answer.trim();
    if (to && !linkAddress.test(to)) return onRefusal(linkRefusal);
    onRefusal('');
    editor.dispatchCommand(TOGGLE_LINK_COMMAND, to || null);
  };
  const list = (kind: 'bullet' | 'number') =>
    editor.dispatchCommand(
      style === kind ? REMOVE_LIST_COMMAND : kind === 'bullet' ? INSERT_UNORDERED_LIST_COMMAND : INSERT_ORDERED_LIST_COMMAND,
      undefined,
    );
  const tool = (label: string, pressed: boolean | undefined, onClick: () => void, mark: string, disabled = false) => (
    <button
      key={label}
      type="button"
      className="dc-rich__tool"
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      // Keeps the text selected while the button is pressed.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {/* The name is the words (read out); the mark is what is seen ("1." is no name for a numbered list). */}
      <span aria-hidden="true">{mark}</span>
      <span className="dp-visually-hidden">{label}</span>
    </button>
  );

  return (
    <div className="dc-rich__toolbar" role="toolbar" aria-label="Formatting">
      <select
        aria-label="Text style"
        value={styles.some((one) => one.value === style) ? style : 'paragraph'}
        onChange={(event) => setBlockStyle(editor, event.target.value as (typeof styles)[number]['value'])}
      >
        {styles.map((one) => (
          <option key={one.value} value={one.value}>
            {one.label}
          </option>
        ))}
      </select>
      {formats.map((one) =>
        tool(one.label, active.has(one.format), () => editor.dispatchCommand(FORMAT_TEXT_COMMAND, one.format), one.mark),
      )}
      {tool('Bulleted list', style === 'bullet', () => list('bullet'), '•')}
      {tool('Numbered list', style === 'number', () => list('number'), '1.')}
      {tool('Quote', style === 'quote', () => setBlockStyle(editor, style === 'quote' ? 'paragraph' : 'quote'), '“')}
      {tool('Link', link !== null, editLink, '🔗')}
      {tool('Undo', undefined, () => editor.dispatchCommand(UNDO_COMMAND, undefined), '↶', !canUndo)}
      {tool('Redo', undefined, () => editor.dispatchCommand(REDO_COMMAND, undefined), '↷', !canRedo)}
    </div>
  );
}

/** A field of formatted text: its toolbar and the text, given and taken as html. */
export default function RichTextEditor({ html, onChange, labelledBy, describedBy, readOnly = false }: RichTextEditorProps) {
  const [refusal, setRefusal] = useState('');
  const last = useRef(html);
  const refusalId = `${labelledBy}-link-error`;
  const changed = useCallback(
    (state: EditorState, editor: LexicalEditor) => {
      const next = state.read(() => $exportRichText(editor));
      if (next === last.current) return;
      last.current = next;
      onChange(next);
    },
    [onChange],
  );
  const describedByAll = [describedBy, refusal ? refusalId : null].filter(Boolean).join(' ') || undefined;

  return (
    <LexicalComposer
      initialConfig={{
        namespace: 'dealer-console',
        nodes: richTextNodes,
        html: richTextHtmlConfig,
        editable: !readOnly,
        editorState: (editor) => $importRichText(editor, html),
        onError: (error) => {
          throw error;
        },
        theme: {
          text: { underline: 'dc-rich__underline', strikethrough: 'dc-rich__strike', underlineStrikethrough: 'dc-rich__underline-strike' },
        },
      }}
    >
      <div className="dc-rich">
        {readOnly ? null : <Toolbar onRefusal={setRefusal} />}
        <RichTextPlugin
          contentEditable={
            <ContentEditable
              className="dc-rich__text"
              aria-labelledby={labelledBy}
              aria-describedby={describedByAll}
              aria-multiline
              {...(describedBy ? { 'aria-invalid': true } : {})}
            />
          }
          ErrorBoundary={LexicalErrorBoundary}
        />
        <HistoryPlugin />
        <ListPlugin />
        <LinkPlugin validateUrl={(url) => linkAddress.test(url)} />
        <OnChangePlugin onChange={changed} />
        {refusal ? (
          <p className="dp-field__error" id={refusalId}>
            {refusal}
          </p>
        ) : null}
      </div>
    </LexicalComposer>
  );
}
