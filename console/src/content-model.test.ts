import { describe, expect, it } from 'vitest';
import { contentSchemas, type ContentBlock } from '@dealer/contracts/content';
// The rules' own template, which the console keeps a copy of (its package does not depend on @dealer/rules).
import { defaultSearchTemplate as rulesTemplate } from '../../shared/rules/src/search-pages';
import {
  blockHeadings,
  blocksReducer,
  blockTypes,
  contentFields,
  dayOf,
  defaultSearchTemplate,
  emptyForm,
  emptyPreset,
  endOfDay,
  formOf,
  idsOf,
  newBlock,
  newBlockId,
  pathOf,
  placeErrors,
  presetOf,
  presetSlug,
  slugOf,
  stateOf,
  versionOf,
} from './content-model';

const text = (id: string, html = ''): ContentBlock => ({ type: 'rich_text', id, html });

describe('the blocks list', () => {
  const three = [text('a'), newBlock('hero', 'b'), text('c')];

  it('adds a block of each type at the end, each one the contract takes once filled in', () => {
    let blocks: ContentBlock[] = [];
    for (const type of blockTypes)
      blocks = blocksReducer(blocks, {
        type: 'add',
        blockType: type,
        id: newBlockId(
          type,
          blocks.map((b) => b.id),
        ),
      });
    expect(blocks.map((block) => block.type)).toEqual(blockTypes);
    expect(new Set(blocks.map((block) => block.id)).size).toBe(blockTypes.length);
    for (const block of blocks) expect(block.id).toMatch(/^[a-z0-9-]{1,40}$/);
  });

  it('moves a block up and down, and not past either end', () => {
    expect(blocksReducer(three, { type: 'move', id: 'c', by: -1 }).map((b) => b.id)).toEqual(['a', 'c', 'b']);
    expect(blocksReducer(three, { type: 'move', id: 'a', by: 1 }).map((b) => b.id)).toEqual(['b', 'a', 'c']);
    expect(blocksReducer(three, { type: 'move', id: 'a', by: -1 })).toBe(three);
    expect(blocksReducer(three, { type: 'move', id: 'c', by: 1 })).toBe(three);
    expect(blocksReducer(three, { type: 'move', id: 'nope', by: 1 })).toBe(three);
  });

  it('removes a block', () => {
    expect(blocksReducer(three, { type: 'remove', id: 'b' }).map((b) => b.id)).toEqual(['a', 'c']);
  });

  it('changes one block’s field and leaves the others, and never its type or id', () => {
    const after = blocksReducer(three, { type: 'change', id: 'b', patch: { headline: 'Spring sale' } });
    expect(after[1]).toEqual({ ...three[1], headline: 'Spring sale' });
    expect(after[0]).toBe(three[0]);
    const kept = blocksReducer(three, { type: 'change', id: 'a', patch: { type: 'hero', id: 'z', html: '<p>x</p>' } as never });
    expect(kept[0]).toEqual({ type: 'rich_text', id: 'a', html: '<p>x</p>' });
  });

  it('numbers the headings within each kind', () => {
    expect(blockHeadings([...three, newBlock('faq', 'd')])).toEqual([
      'Rich text 1',
      'Hero banner 1',
      'Rich text 2',
      'Questions and answers 1',
    ]);
  });
});

describe('where a refused field’s message goes', () => {
  it('puts block messages on the block that was sent at that place, by its id', () => {
    const placed = placeErrors(
      {
        'content.blocks.1.headline': 'Give it a headline.',
        'content.blocks.1.cta.to': 'A link goes to a page of the site (/about) or a web address (https://…).',
        'content.blocks.0': 'This kind of block is not one the site can show.',
        'content.title': 'Give the page a title.',
        'content.seo.title': 'At most 70 characters: search results cut longer titles.',
        'content.blocks': 'At most 60 blocks on a page.',
        slug: 'Another one has this address; choose another.',
      },
      ['a', 'b'],
    );
    expect(placed.blocks).toEqual({
      a: { '': 'This kind of block is not one the site can show.' },
      b: { headline: 'Give it a headline.', 'cta.to': 'A link goes to a page of the site (/about) or a web address (https://…).' },
    });
    expect(placed.form).toEqual({
      title: 'Give the page a title.',
      'seo.title': 'At most 70 characters: search results cut longer titles.',
      blocks: 'At most 60 blocks on a page.',
      slug: 'Another one has this address; choose another.',
    });
  });

  it('keeps a message on the form when no block was sent at its place', () => {
    expect(placeErrors({ 'content.blocks.4.html': 'Too long.' }, ['a']).form).toEqual({ 'blocks.4.html': 'Too long.' });
  });

  it('ties each message to its field with ids unique on the page', () => {
    const fields = contentFields({ headline: 'Give it a headline.', 'car_ids.2': 'Expected a number.' }, 'block-b');
    expect(fields.message('headline')).toBe('Give it a headline.');
    expect(fields.invalid('headline')).toEqual({ 'aria-invalid': true, 'aria-describedby': 'block-b-headline-error' });
    expect(fields.invalid('text')).toEqual({});
    expect(fields.message('car_ids')).toBeNull();
    expect(fields.within('car_ids')).toBe('Expected a number.');
    expect(contentFields({}, 'block-c').errorId('headline')).not.toBe(fields.errorId('headline'));
  });
});

describe('what is sent', () => {
  it('sends a page’s own fields and leaves out empty search details and an empty hero button', () => {
    const form = {
      ...emptyForm(),
      title: 'About us',
      seo: { title: '', description: 'Family owned since 1982.' },
      blocks: [{ ...newBlock('hero', 'h'), headline: 'Hello', cta: { label: '', to: '' } } as ContentBlock],
      summary: 'not a page field',
    };
    const sent = versionOf('page', form);
    expect(JSON.parse(JSON.stringify(sent))).toEqual({
      title: 'About us',
      seo: { description: 'Family owned since 1982.' },
      blocks: [{ type: 'hero', id: 'h', headline: 'Hello', text: '' }],
    });
    expect(contentSchemas.page.safeParse(sent).success).toBe(true);
  });

  it('sends what each kind’s contract takes', () => {
    const form = {
      ...emptyForm(),
      title: 'Winter service',
      summary: 'Half price',
      image: { src: '/img/car/0123456789abcdef0123456789abcdef.jpg', alt: 'A car' },
      car_ids: [3, 4],
      expires_at: endOfDay('2030-06-30')!,
      terms_html: '<p>While stocks last.</p>',
      body_html: '<p>Join us.</p>',
      employment_type: 'Casual' as const,
    };
    for (const kind of ['page', 'post', 'offer', 'job'] as const)
      expect(contentSchemas[kind].safeParse(versionOf(kind, form)).error).toBeUndefined();
    expect(Object.keys(versionOf('job', form)).sort()).toEqual([
      'body_html',
      'closes_at',
      'employment_type',
      'location_id',
      'summary',
      'title',
    ]);
  });

  it('sends a search page’s chosen facets and own words only, as its contract takes them', () => {
    const form = {
      ...emptyForm(),
      preset: { ...emptyPreset, car_type: 'used' as const, make: ' Toyota ', model: 'HiLux' },
      seo: { title: '', description: '  ' },
      summary: 'not a search page field',
    };
    const sent = versionOf('landing', form);
    expect(JSON.parse(JSON.stringify(sent))).toEqual({ preset: { car_type: 'used', make: 'Toyota', model: 'HiLux' }, seo: {} });
    expect(contentSchemas.landing.safeParse(sent).error).toBeUndefined();
    const own = versionOf('landing', { ...form, title: 'Utes for tradies', intro_html: '<p>Tough.</p>', seo: { title: 'Utes' } });
    expect(own).toMatchObject({ title: 'Utes for tradies', intro_html: '<p>Tough.</p>', seo: { title: 'Utes' } });
    expect(contentSchemas.landing.safeParse(versionOf('landing', emptyForm())).error?.issues[0]?.path).toEqual(['preset']);
  });

  it('sends the template as written, placeholders and all', () => {
    const sent = versionOf('search_template', { ...formOf(defaultSearchTemplate), title: '{make} {model} at {site}', seo: { title: 'x' } });
    expect(sent).toEqual({ ...defaultSearchTemplate, title: '{make} {model} at {site}' });
    expect(contentSchemas.search_template.safeParse(sent).error).toBeUndefined();
  });

  it('starts the template from the rules’ default', () => {
    expect(defaultSearchTemplate).toEqual(rulesTemplate);
  });

  it('reads a stored search page back into the form, facets it did not choose empty', () => {
    const form = formOf({ preset: { car_type: 'demo', fuel: 'Electric' }, seo: {} });
    expect(form.preset).toEqual({ car_type: 'demo', make: '', model: '', body: '', fuel: 'Electric' });
    expect(form.title).toBe('');
    expect(form.intro_html).toBe('');
    expect(presetOf(form.preset)).toEqual({ car_type: 'demo', fuel: 'Electric' });
  });

  it('reads a stored version back into the form', () => {
    const form = formOf({ title: 'Careers', blocks: [{ type: 'jobs_list', id: 'j' }], seo: { title: 'Jobs' } });
    expect(form.title).toBe('Careers');
    expect(form.blocks).toHaveLength(1);
    expect(form.terms_html).toBe('');
    expect(formOf(null)).toEqual(emptyForm());
  });
});

describe('the small rules', () => {
  it('says where each kind shows on the site', () => {
    expect(pathOf('page', 'home')).toBe('/');
    expect(pathOf('page', 'pages/about-us')).toBe('/about-us');
    expect(pathOf('post', 'new-showroom', 'news')).toBe('/news/new-showroom');
    expect(pathOf('offer', 'winter')).toBe('/special-offers/winter');
    expect(pathOf('job', 'apprentice')).toBe('/careers');
    expect(pathOf('landing', 'used-toyota-hilux')).toBe('/search/used-toyota-hilux');
  });

  it('makes a search page’s address from its preset', () => {
    expect(presetSlug({ ...emptyPreset, car_type: 'used', make: 'Toyota', model: 'HiLux' })).toBe('used-toyota-hilux');
    expect(presetSlug({ ...emptyPreset, body: 'Ute', fuel: 'Diesel' })).toBe('ute-diesel');
    expect(presetSlug(emptyPreset)).toBe('');
  });

  it('makes an address from a title', () => {
    expect(slugOf('  Über cars & Vans — 2025! ')).toBe('uber-cars-vans-2025');
  });

  it('says the state in the dealer’s words', () => {
    expect(stateOf({ draft: {}, published: null })).toBe('draft');
    expect(stateOf({ draft: null, published: {} })).toBe('published');
    expect(stateOf({ draft: {}, published: {} })).toBe('changed');
  });

  it('ends an offer at the last moment of its day, and shows that day again', () => {
    const end = endOfDay('2030-02-28')!;
    expect(new Date(end + 1).getDate()).toBe(1);
    expect(dayOf(end)).toBe('2030-02-28');
    expect(dayOf(0)).toBe('');
    expect(endOfDay('')).toBeUndefined();
  });

  it('reads ids separated by commas and says when a part is not one', () => {
    expect(idsOf('12, 15 ,7')).toEqual({ ids: [12, 15, 7], wrong: false });
    expect(idsOf('')).toEqual({ ids: [], wrong: false });
    expect(idsOf('12, x, 0')).toEqual({ ids: [12], wrong: true });
  });
});
