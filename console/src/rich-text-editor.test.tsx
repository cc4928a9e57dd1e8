// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createEditor, type LexicalEditor } from 'lexical';
import { afterEach, describe, expect, it, vi } from 'vitest';
import RichTextEditor, { linkRefusal } from './rich-text-editor';
import { $exportRichText, $importRichText, richTextHtmlConfig, richTextNodes, tidyRichTextHtml } from './rich-text-html';

const editorOf = () =>
  createEditor({
    namespace: 'test',
    nodes: richTextNodes,
    html: richTextHtmlConfig,
    onError: (error) => {
      throw error;
    },
  });

/** The html through the editor: in with the editor's import, out with its export. */
function roundTrip(html: string, editor: LexicalEditor = editorOf()) {
  editor.update(() => $importRichText(editor, html), { discrete: true });
  return editor.getEditorState().read(() => $exportRichText(editor));
}

describe('the rich-text html', () => {
  // Every tag the toolbar makes and the site keeps, each as the editor writes it.
  it.each([
    ['a paragraph', '<p>Open seven days.</p>'],
    ['headings 2 to 4', '<h2>Service</h2><h3>Brakes</h3><h4>Pads</h4>'],
    ['bold', '<p>Now <strong>half price</strong> for a week.</p>'],
    ['italic', '<p><em>Conditions apply.</em></p>'],
    ['underline', '<p><u>Book today</u></p>'],
    ['strike', '<p><s>$199</s> $149</p>'],
    ['every format at once, nested in one order', '<p><strong><em><u><s>all four</s></u></em></strong></p>'],
    ['a link to a page of the site', '<p>See <a href="/about">about us</a>.</p>'],
    ['a link to a web address with formatted text', '<p><a href="https://example.com/x?y=1"><strong>Offer</strong></a></p>'],
    ['a bulleted list', '<ul><li>Wheels</li><li>Tyres</li></ul>'],
    ['a numbered list', '<ol><li>Call</li><li>Book</li></ol>'],
    ['a quote', '<blockquote>Best service in town.</blockquote>'],
    ['a line break', '<p>12 High St<br>Sydney</p>'],
    ['an empty line between paragraphs', '<p>One</p><p><br></p><p>Two</p>'],
  ])('round-trips %s', (_, html) => {
    expect(roundTrip(html)).toBe(html);
  });

  it('writes nothing for an empty editor', () => {
    expect(roundTrip('')).toBe('');
    expect(roundTrip('<p></p>')).toBe('');
  });

  it('keeps a link’s address and drops attributes the site does not keep', () => {
    expect(roundTrip('<p class="x" style="color:red" dir="ltr"><a href="/x" target="_blank" rel="noopener">x</a></p>')).toBe(
      '<p><a href="/x">x</a></p>',
    );
  });

  it('writes formats in one order and merges runs with the same format', () => {
    expect(tidyRichTextHtml('<i><b><strong style="white-space: pre-wrap;">x</strong></b></i>')).toBe('<strong>x</strong>');
    expect(tidyRichTextHtml('<p><strong>a</strong><strong><em>b</em></strong></p>')).toBe('<p><strong>a<em>b</em></strong></p>');
    expect(roundTrip('<p><em><strong>x</strong></em></p>')).toBe('<p><strong><em>x</em></strong></p>');
  });

  it('keeps the text of tags it does not write, and makes other headings the nearest it does', () => {
    expect(roundTrip('<h1>Title</h1><p><span>plain</span> <code>code</code></p><h6>Small</h6>')).toBe(
      '<h2>Title</h2><p>plain code</p><h4>Small</h4>',
    );
  });
});

describe('the rich-text editor', () => {
  afterEach(cleanup);

  it('is a labelled text box with its toolbar, showing the html it was given', async () => {
    render(
      <>
        <span id="body-label">Body</span>
        <RichTextEditor html="<p>Hello <strong>there</strong></p>" onChange={() => {}} labelledBy="body-label" />
      </>,
    );
    const box = await screen.findByRole('textbox', { name: 'Body' });
    expect(box.getAttribute('contenteditable')).toBe('true');
    expect(box.textContent).toBe('Hello there');
    expect(box.querySelector('strong')?.textContent).toBe('there');
    expect(screen.getByRole('toolbar', { name: 'Formatting' })).toBeTruthy();
    for (const name of ['Bold', 'Italic', 'Underline', 'Strikethrough', 'Bulleted list', 'Numbered list', 'Quote', 'Link', 'Undo', 'Redo'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Text style' })).toBeTruthy();
  });

  it('says its html when the text changes', async () => {
    const onChange = vi.fn();
    render(
      <>
        <span id="t-label">Text</span>
        <RichTextEditor html="<p>Hello</p>" onChange={onChange} labelledBy="t-label" />
      </>,
    );
    await screen.findByRole('textbox', { name: 'Text' });
    // Select everything and make it a heading, as the dealer would with the style list.
    const box = screen.getByRole('textbox', { name: 'Text' });
    await act(async () => {
      box.focus();
      const range = document.createRange();
      range.selectNodeContents(box);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      document.dispatchEvent(new Event('selectionchange'));
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Text style' }), { target: { value: 'h2' } });
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(onChange).toHaveBeenLastCalledWith('<h2>Hello</h2>');
  });

  it('makes lists, quotes, bold text and links from its toolbar', async () => {
    const onChange = vi.fn();
    render(
      <>
        <span id="l-label">Text</span>
        <RichTextEditor html="<p>Hello</p>" onChange={onChange} labelledBy="l-label" />
      </>,
    );
    const box = await screen.findByRole('textbox', { name: 'Text' });
    const press = async (name: string) => {
      await act(async () => {
        box.focus();
        const range = document.createRange();
        range.selectNodeContents(box);
        window.getSelection()!.removeAllRanges();
        window.getSelection()!.addRange(range);
        document.dispatchEvent(new Event('selectionchange'));
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name }));
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
    };
    await press('Bulleted list');
    expect(onChange).toHaveBeenLastCalledWith('<ul><li>Hello</li></ul>');
    await press('Numbered list');
    expect(onChange).toHaveBeenLastCalledWith('<ol><li>Hello</li></ol>');
    await press('Numbered list');
    expect(onChange).toHaveBeenLastCalledWith('<p>Hello</p>');
    await press('Quote');
    expect(onChange).toHaveBeenLastCalledWith('<blockquote>Hello</blockquote>');
    await press('Bold');
    expect(onChange).toHaveBeenLastCalledWith('<blockquote><strong>Hello</strong></blockquote>');
    expect(screen.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('true');
    vi.spyOn(window, 'prompt').mockReturnValueOnce('javascript:alert(1)').mockReturnValueOnce('/service');
    await press('Link');
    expect(screen.getByText(linkRefusal)).toBeTruthy();
    await press('Link');
    expect(onChange).toHaveBeenLastCalledWith('<blockquote><a href="/service"><strong>Hello</strong></a></blockquote>');
    expect(screen.queryByText(linkRefusal)).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(onChange).toHaveBeenLastCalledWith('<blockquote><strong>Hello</strong></blockquote>');
  });

  it('reads only when the dealer may not write', async () => {
    render(
      <>
        <span id="r-label">Terms</span>
        <RichTextEditor html="<p>Fixed</p>" onChange={() => {}} labelledBy="r-label" readOnly />
      </>,
    );
    const box = await screen.findByRole('textbox', { name: 'Terms' });
    expect(box.getAttribute('aria-readonly')).toBe('true');
    expect(screen.queryByRole('toolbar')).toBeNull();
  });
});
