import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { KeptMarkup, KeptMarkupContext, harvestKeptMarkup, keptMarkupRender, type KeptMarkupEntry } from './kept-markup';

describe('harvestKeptMarkup', () => {
  it('takes each marked element’s inner markup up to its own closing tag, nested ones of its kind included', () => {
    const page =
      '<ul><li data-kept-markup="0" class="a"><ul><li>inner</li></ul><b>x</b></li><li class="b" data-kept-markup="1">two<link rel="x"/></li></ul>';
    const { html, kept } = harvestKeptMarkup(
      page,
      new Map([
        ['0', 'li'],
        ['1', 'li'],
      ]),
    );
    expect(html).toBe('<ul><li class="a"><ul><li>inner</li></ul><b>x</b></li><li class="b">two<link rel="x"/></li></ul>');
    expect(kept).toEqual(
      new Map([
        ['0', '<ul><li>inner</li></ul><b>x</b>'],
        ['1', 'two<link rel="x"/>'],
      ]),
    );
  });

  it('keeps a marked part inside another without its mark', () => {
    const page = '<footer data-kept-markup="0"><nav data-kept-markup="1"><a href="/">Home</a></nav></footer>';
    const { html, kept } = harvestKeptMarkup(
      page,
      new Map([
        ['0', 'footer'],
        ['1', 'nav'],
      ]),
    );
    expect(html).toBe('<footer><nav><a href="/">Home</a></nav></footer>');
    expect(kept.get('0')).toBe('<nav><a href="/">Home</a></nav>');
    expect(kept.get('1')).toBe('<a href="/">Home</a>');
  });
});

describe('a kept part in a render', () => {
  const Card = ({ name }: { name: string }) => (
    <KeptMarkup as="li" keep={`card ${name}`} className="card">
      <a href="/cars/1">{name}</a>
    </KeptMarkup>
  );

  it('renders as the element with its children where the page keeps nothing (the browser)', () => {
    expect(renderToString(<Card name="HiLux" />)).toBe('<li class="card"><a href="/cars/1">HiLux</a></li>');
  });

  it('is rendered once, then repeated from what the server kept, with what it noted told again', () => {
    const entries = new Map<string, KeptMarkupEntry>();
    const cache = { get: (key: string) => entries.get(key), set: (key: string, entry: KeptMarkupEntry) => void entries.set(key, entry) };
    const first = keptMarkupRender(cache, () => undefined);
    const html = first.finish(
      renderToString(
        <KeptMarkupContext.Provider value={first.store}>
          <Card name={'HiLux & <more>'} />
        </KeptMarkupContext.Provider>,
      ),
    );
    expect(html).toBe('<li class="card"><a href="/cars/1">HiLux &amp; &lt;more&gt;</a></li>');
    entries.set('card HiLux & <more>', { ...entries.get('card HiLux & <more>')!, notes: ['mf-garage/FavouriteButton'] });

    const noted: string[] = [];
    const again = keptMarkupRender(cache, (note) => noted.push(note));
    const repeated = again.finish(
      renderToString(
        <KeptMarkupContext.Provider value={again.store}>
          <Card name={'HiLux & <more>'} />
        </KeptMarkupContext.Provider>,
      ),
    );
    expect(repeated).toBe(html);
    expect(noted).toEqual(['mf-garage/FavouriteButton']);
  });
});
