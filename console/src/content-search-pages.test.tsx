// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { defaultSearchTemplate } from './content-model';
import { ContentScreen } from './content-screen';
import { base, fakeConsoleApi, listing, loadContentScreenFirst, site, type Call } from './testing/content-screen-setup';

loadContentScreenFirst();

const landing = (over: Record<string, unknown> = {}) => ({
  id: 9,
  kind: 'landing',
  slug: 'used-toyota-hilux',
  draft: { preset: { car_type: 'used', make: 'Toyota', model: 'HiLux' }, seo: {} },
  published: null,
  published_at: null,
  updated_at: 1_700_000_000_000,
  path: '/search/used-toyota-hilux',
  ...over,
});
const template = (over: Record<string, unknown> = {}) => ({
  id: 12,
  kind: 'search_template',
  slug: 'default',
  draft: null,
  published: { title: '{make} {model} in {city}', intro_html: '<p>{site} has them.</p>', description: 'Our {make} cars.' },
  published_at: 1,
  updated_at: 1_700_000_000_000,
  path: '/',
  ...over,
});
/** The lists: no search pages and no template, unless the test says otherwise. */
const lists = (call: Call, landings: unknown[] = [], templates: unknown[] = []) => ({
  body: { items: call.url.endsWith('kind=landing') ? landings : call.url.endsWith('kind=search_template') ? templates : [] },
});
const api = fakeConsoleApi((call) => lists(call));

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const openTab = async () => fireEvent.click(await screen.findByRole('tab', { name: 'Search pages' }));
const valueOf = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

describe('the search pages tab', () => {
  it('lists each search page by its own title or the template’s, at /search/<slug>, after the other kinds', async () => {
    api.answer = (call) => lists(call, [listing(landing()), listing(landing({ id: 10, slug: 'electric-cars' }), 'Electric cars')]);
    render(<ContentScreen site={site} />);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Pages', 'News', 'Offers', 'Jobs', 'Search pages']);
    await openTab();
    const hilux = await screen.findByRole('row', { name: /used-toyota-hilux/ });
    expect(within(hilux).getByRole('button', { name: '(from the template)' })).toBeTruthy();
    expect(within(hilux).getByText('/search/used-toyota-hilux')).toBeTruthy();
    expect(within(hilux).getByText('Draft')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /Electric cars/ })).getByText('/search/electric-cars')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New search page' })).toBeTruthy();
    expect(api.calls.some((call) => call.url === `${base}/content?kind=landing`)).toBe(true);
  });

  it('writes a new search page from its preset, its address following it, and sends only what was chosen', async () => {
    api.answer = (call) => (call.method === 'POST' ? { status: 201, body: landing() } : lists(call));
    render(<ContentScreen site={site} />);
    await openTab();
    fireEvent.click(await screen.findByRole('button', { name: 'New search page' }));

    fireEvent.change(screen.getByLabelText('Condition'), { target: { value: 'used' } });
    type('Make', 'Toyota');
    type('Model', 'HiLux');
    expect(valueOf('Address')).toBe('used-toyota-hilux');
    expect(screen.getByText('Shown at /search/used-toyota-hilux')).toBeTruthy();
    for (const label of ['Body', 'Fuel', 'Title (optional: from the template when empty)', 'SEO title', 'SEO description'])
      expect(valueOf(label)).toBe('');
    expect(await screen.findByRole('textbox', { name: 'Intro (optional)' })).toBeTruthy();
    expect(screen.queryByLabelText('Share image')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add block' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Draft saved.')).toBeTruthy();
    const sent = api.calls.find((call) => call.method === 'POST')!;
    expect(sent.url).toBe(`${base}/content`);
    expect(sent.body).toEqual({
      kind: 'landing',
      slug: 'used-toyota-hilux',
      content: { preset: { car_type: 'used', make: 'Toyota', model: 'HiLux' }, seo: {} },
    });
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('shows a refused preset beside the preset’s fields and keeps what was typed', async () => {
    const message = 'Choose at least one of condition, make, model, body or fuel.';
    api.answer = (call) =>
      call.method === 'POST'
        ? { status: 400, body: { message: 'Please check the highlighted fields.', fields: { 'content.preset': message } } }
        : lists(call);
    render(<ContentScreen site={site} />);
    await openTab();
    fireEvent.click(await screen.findByRole('button', { name: 'New search page' }));
    type('Address', 'cars-for-tradies');
    type('SEO title', 'Cars for tradies');
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Please check the highlighted fields.');
    const preset = screen.getByRole('group', { name: 'The cars it lists' });
    const shown = within(preset).getByText(message);
    expect(preset.getAttribute('aria-describedby')!.split(' ')).toContain(shown.id);
    expect(valueOf('Address')).toBe('cars-for-tradies');
    expect(valueOf('SEO title')).toBe('Cars for tradies');
  });

  it('previews a search page at its address', async () => {
    const open = vi.fn(() => null);
    vi.stubGlobal('open', open);
    api.answer = (call) =>
      call.url.endsWith('/preview-link')
        ? { body: { url: 'http://demo.localhost/search/used-toyota-hilux?dp_preview=x', expires_in_minutes: 60 } }
        : call.url.endsWith('/content/9')
          ? { body: landing() }
          : lists(call, [listing(landing())]);
    render(<ContentScreen site={site} />);
    await openTab();
    fireEvent.click(await screen.findByRole('button', { name: '(from the template)' }));
    expect(await screen.findByLabelText('Make')).toBeTruthy();
    expect(valueOf('Make')).toBe('Toyota');
    expect(valueOf('Condition')).toBe('used');
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await screen.findByText(/The preview is open in a new tab/);
    expect(api.calls.find((call) => call.url.endsWith('/preview-link'))!.body).toEqual({ path: '/search/used-toyota-hilux' });
  });
});

describe('the search page template', () => {
  it('starts from the default template, lists its placeholders, and is created by its first save', async () => {
    api.answer = (call) =>
      call.method === 'POST' && call.url.endsWith('/content')
        ? { status: 201, body: template({ id: 12, draft: call.body && (call.body as { content: unknown }).content, published: null }) }
        : call.url.endsWith('/content/12/publish')
          ? { body: template() }
          : call.method === 'PUT'
            ? { body: template({ draft: (call.body as { content: unknown }).content }) }
            : lists(call);
    render(<ContentScreen site={site} />);
    await openTab();
    const section = await screen.findByRole('region', { name: 'Search page template' });
    await within(section).findByLabelText('Title template');
    expect(valueOf('Title template')).toBe(defaultSearchTemplate.title);
    expect(valueOf('Intro template')).toBe(defaultSearchTemplate.intro_html);
    expect(valueOf('Description template')).toBe(defaultSearchTemplate.description);
    expect(within(section).getByText(/Not saved yet/)).toBeTruthy();
    expect(
      within(section)
        .getAllByText(/^\{\w+\}$/)
        .map((code) => code.textContent),
    ).toEqual(['{make}', '{model}', '{condition}', '{body}', '{fuel}', '{city}', '{site}']);

    type('Title template', '{make} {model} at {site}');
    fireEvent.click(within(section).getByRole('button', { name: 'Save draft' }));
    await within(section).findByText(/Draft saved/);
    expect(api.calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      url: `${base}/content`,
      body: {
        kind: 'search_template',
        slug: 'default',
        content: { ...defaultSearchTemplate, title: '{make} {model} at {site}' },
      },
    });
    expect(within(section).getByText('Draft')).toBeTruthy();

    fireEvent.click(within(section).getByRole('button', { name: 'Publish' }));
    await within(section).findByText('Published: the site’s search pages use it now.');
    expect(api.calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.url}`)).toEqual([
      `POST ${base}/content`,
      `PUT ${base}/content/12`,
      `POST ${base}/content/12/publish`,
    ]);
    expect((api.calls.find((call) => call.method === 'PUT')!.body as { slug: string }).slug).toBe('default');
  });

  it('shows the site’s own template once it has one, and its refusals beside their fields', async () => {
    api.answer = (call) =>
      call.method === 'PUT'
        ? {
            status: 400,
            body: { message: 'Please check the highlighted fields.', fields: { 'content.title': 'Write the title template.' } },
          }
        : call.url.endsWith('/content/12')
          ? { body: template() }
          : lists(call, [], [listing(template())]);
    render(<ContentScreen site={site} />);
    await openTab();
    const section = await screen.findByRole('region', { name: 'Search page template' });
    await within(section).findByText('Published');
    expect(valueOf('Title template')).toBe('{make} {model} in {city}');
    expect(valueOf('Intro template')).toBe('<p>{site} has them.</p>');
    type('Title template', '');
    fireEvent.click(within(section).getByRole('button', { name: 'Save draft' }));
    await within(section).findByText('Write the title template.');
    expect(screen.getByLabelText('Title template').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows a role that may only read the template without its buttons', async () => {
    render(<ContentScreen site={{ ...site, actions: ['content.read'] }} />);
    await openTab();
    const section = await screen.findByRole('region', { name: 'Search page template' });
    await within(section).findByLabelText('Title template');
    expect(within(section).queryByRole('button', { name: 'Save draft' })).toBeNull();
    expect((screen.getByLabelText('Title template') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'New search page' })).toBeNull();
  });
});
