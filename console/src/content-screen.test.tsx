// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ContentScreen } from './content-screen';
import { base, fakeConsoleApi, listing, loadContentScreenFirst, site } from './testing/content-screen-setup';

loadContentScreenFirst();
const api = fakeConsoleApi(() => ({ body: { items: [] } }));

const record = (over: Record<string, unknown> = {}) => ({
  id: 7,
  kind: 'page',
  slug: 'about-us',
  draft: { title: 'About us', blocks: [], seo: {} },
  published: null,
  published_at: null,
  updated_at: 1_700_000_000_000,
  path: '/about-us',
  ...over,
});
/** The pages list with the one page, "About us", a draft. */
const aboutUsListed = () => ({ body: { items: [listing(record(), 'About us')] } });

const type = (label: string, value: string, scope: HTMLElement = document.body) =>
  fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

describe('the content screen', () => {
  it('lists each kind with its address and state in the dealer’s words', async () => {
    api.answer = (call) =>
      call.url.endsWith('kind=post')
        ? {
            body: {
              items: [
                {
                  id: 2,
                  kind: 'post',
                  slug: 'new-showroom',
                  title: 'New showroom',
                  state: 'changed',
                  published_at: 1,
                  expires_at: null,
                  updated_at: 1_700_000_000_000,
                },
              ],
            },
          }
        : {
            body: {
              items: [
                {
                  id: 1,
                  kind: 'page',
                  slug: 'home',
                  title: 'Home',
                  state: 'published',
                  published_at: 1,
                  expires_at: null,
                  updated_at: 1_700_000_000_000,
                },
              ],
            },
          };
    render(<ContentScreen site={site} />);
    const home = await screen.findByRole('row', { name: /Home/ });
    expect(within(home).getByText('/')).toBeTruthy();
    expect(within(home).getByText('Published')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New page' })).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'News' }));
    const post = await screen.findByRole('row', { name: /New showroom/ });
    expect(within(post).getByText('/blog/new-showroom')).toBeTruthy();
    expect(within(post).getByText('Unpublished changes')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'News' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('button', { name: 'New post' })).toBeTruthy();
  });

  it('writes a new page with blocks and saves it as a draft', async () => {
    api.answer = (call) => (call.method === 'POST' ? { status: 201, body: record({ draft: call.body }) } : { body: { items: [] } });
    render(<ContentScreen site={site} />);
    fireEvent.click(await screen.findByRole('button', { name: 'New page' }));

    type('Title', 'About us');
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe('about-us');
    type('SEO title', 'About Demo Motors');
    expect(screen.getByText('17 of 70 characters')).toBeTruthy();
    type('SEO description', 'Family owned.');

    fireEvent.change(screen.getByLabelText('Block type'), { target: { value: 'hero' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add block' }));
    fireEvent.change(screen.getByLabelText('Block type'), { target: { value: 'rich_text' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add block' }));
    const hero = screen.getByRole('region', { name: 'Hero banner 1' });
    type('Headline', 'Since 1982', hero);
    expect(await screen.findByRole('textbox', { name: 'Text' })).toBeTruthy();

    // The rich text goes first.
    fireEvent.click(screen.getByRole('button', { name: 'Move Rich text 1 up' }));
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(['Rich text 1', 'Hero banner 1']);

    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Draft saved.')).toBeTruthy();
    const sent = api.calls.find((call) => call.method === 'POST')!;
    expect(sent.url).toBe(`${base}/content`);
    expect(sent.body).toMatchObject({
      kind: 'page',
      slug: 'about-us',
      content: {
        title: 'About us',
        seo: { title: 'About Demo Motors', description: 'Family owned.' },
        blocks: [
          { type: 'rich_text', html: '' },
          { type: 'hero', headline: 'Since 1982' },
        ],
      },
    });
  });

  it('puts each refused field’s message beside it, on the block it belongs to, and keeps what was typed', async () => {
    api.answer = (call) =>
      call.method === 'PUT'
        ? {
            status: 400,
            body: {
              message: 'Please check the highlighted fields.',
              fields: { 'content.blocks.1.headline': 'Give it a headline.', 'content.seo.description': 'At most 160 characters.' },
            },
          }
        : call.url.endsWith('/content/7')
          ? {
              body: record({
                draft: {
                  title: 'About us',
                  seo: {},
                  blocks: [
                    { type: 'hero', id: 'top', headline: 'Hello' },
                    { type: 'cta', id: 'end', headline: '', button: { label: 'Call', to: '/contact' } },
                  ],
                },
              }),
            }
          : aboutUsListed();
    render(<ContentScreen site={site} />);
    fireEvent.click(await screen.findByRole('button', { name: 'About us' }));
    await screen.findByRole('region', { name: 'Call to action 1' });
    type('SEO description', 'x'.repeat(170));
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Please check the highlighted fields.');
    const cta = screen.getByRole('region', { name: 'Call to action 1' });
    const headline = within(cta).getByLabelText('Headline (optional)');
    expect(headline.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(headline.getAttribute('aria-describedby')!.split(' ').pop()!)!.textContent).toBe('Give it a headline.');
    expect(within(screen.getByRole('region', { name: 'Hero banner 1' })).queryByText('Give it a headline.')).toBeNull();
    expect(screen.getByText('At most 160 characters.')).toBeTruthy();
    expect((screen.getByLabelText('SEO description') as HTMLTextAreaElement).value).toHaveLength(170);

    // The message moves with its block.
    fireEvent.click(screen.getByRole('button', { name: 'Move Call to action 1 up' }));
    expect(within(screen.getByRole('region', { name: 'Call to action 1' })).getByText('Give it a headline.')).toBeTruthy();
  });

  it('names a taken address on the address field', async () => {
    api.answer = (call) =>
      call.method === 'POST'
        ? {
            status: 409,
            body: { message: 'Please check the highlighted fields.', fields: { slug: 'Another one has this address; choose another.' } },
          }
        : { body: { items: [] } };
    render(<ContentScreen site={site} />);
    fireEvent.click(await screen.findByRole('button', { name: 'New page' }));
    type('Title', 'Contact');
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Another one has this address; choose another.');
    const address = screen.getByLabelText('Address');
    expect(address.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Contact');
  });

  it('publishes what is on screen: saved first, then put on the site', async () => {
    api.answer = (call) =>
      call.url.endsWith('/publish')
        ? { body: record({ draft: null, published: { title: 'About us', blocks: [], seo: {} }, published_at: 2 }) }
        : call.url.endsWith('/content/7')
          ? { body: record() }
          : aboutUsListed();
    render(<ContentScreen site={site} />);
    fireEvent.click(await screen.findByRole('button', { name: 'About us' }));
    await screen.findByLabelText('Title');
    expect(screen.queryByRole('button', { name: 'Unpublish' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Published: the site shows it now.')).toBeTruthy();
    expect(api.calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.url}`)).toEqual([
      `PUT ${base}/content/7`,
      `POST ${base}/content/7/publish`,
    ]);
    expect(screen.getByRole('button', { name: 'Unpublish' })).toBeTruthy();
  });

  it('writes a job with its own fields, and the site’s locations by name', async () => {
    const siteWithSettings = { ...site, actions: [...site.actions, 'settings.read'] };
    api.answer = (call) =>
      call.url.endsWith('/settings')
        ? { body: { locations: [{ id: 3, name: 'Parramatta' }], features: {} } }
        : call.method === 'POST'
          ? { status: 201, body: record({ kind: 'job', path: '/careers' }) }
          : { body: { items: [] } };
    render(<ContentScreen site={siteWithSettings} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Jobs' }));
    fireEvent.click(await screen.findByRole('button', { name: 'New job' }));
    type('Title', 'Apprentice technician');
    fireEvent.change(screen.getByLabelText('Employment type'), { target: { value: 'Apprenticeship' } });
    await screen.findByRole('option', { name: 'Parramatta' });
    fireEvent.change(screen.getByLabelText('Location'), { target: { value: '3' } });
    type('Applications close on (optional)', '2030-01-31');
    expect(screen.queryByLabelText('SEO title')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add block' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved.');
    const sent = api.calls.find((call) => call.method === 'POST')!.body as { kind: string; content: Record<string, unknown> };
    expect(sent.kind).toBe('job');
    expect(sent.content).toMatchObject({ title: 'Apprentice technician', employment_type: 'Apprenticeship', location_id: 3 });
    expect(new Date(sent.content.closes_at as number).getDate()).toBe(31);
  });

  it('uploads a share image and sends its address', async () => {
    api.answer = (call) =>
      call.url.endsWith('/content-images')
        ? { body: { src: '/img/car/0123456789abcdef0123456789abcdef.jpg' } }
        : call.method === 'POST'
          ? { status: 201, body: record() }
          : { body: { items: [] } };
    render(<ContentScreen site={site} />);
    fireEvent.click(await screen.findByRole('button', { name: 'New page' }));
    type('Title', 'About');
    const file = new File(['x'], 'shop.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByLabelText('Share image'), { target: { files: [file] } });
    await screen.findByRole('button', { name: 'Remove the picture' });
    const upload = api.calls.find((call) => call.url.endsWith('/content-images'))!;
    expect(upload.method).toBe('PUT');
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved.');
    await waitFor(() =>
      expect((api.calls.find((call) => call.method === 'POST')!.body as { content: { seo: unknown } }).content.seo).toEqual({
        share_image: '/img/car/0123456789abcdef0123456789abcdef.jpg',
      }),
    );
  });

  it('keeps each answer with its question when a question is removed', async () => {
    const items = ['One', 'Two', 'Three'].map((word) => ({ question: `${word}?`, answer_html: `<p>${word}.</p>` }));
    api.answer = (call) =>
      call.url.endsWith('/content/7')
        ? { body: record({ draft: { title: 'FAQ', seo: {}, blocks: [{ type: 'faq', id: 'faq', items }] } }) }
        : {
            body: {
              items: [
                { id: 7, kind: 'page', slug: 'faq', title: 'FAQ', state: 'draft', published_at: null, expires_at: null, updated_at: 1 },
              ],
            },
          };
    render(<ContentScreen site={site} />);
    fireEvent.click(await screen.findByRole('button', { name: 'FAQ' }));
    const faq = await screen.findByRole('region', { name: 'Questions and answers 1' });
    await waitFor(() => expect(within(faq).getAllByRole('textbox', { name: 'Answer' })).toHaveLength(3));
    fireEvent.click(within(faq).getByRole('button', { name: 'Remove question 2' }));
    await waitFor(() =>
      expect(
        within(faq)
          .getAllByRole('textbox', { name: 'Answer' })
          .map((box) => box.textContent),
      ).toEqual(['One.', 'Three.']),
    );
    expect(
      within(faq)
        .getAllByLabelText('Question')
        .map((input) => (input as HTMLInputElement).value),
    ).toEqual(['One?', 'Three?']);
  });

  it('shows a role that may only read no buttons that change anything', async () => {
    api.answer = (call) => (call.url.endsWith('/content/7') ? { body: record() } : aboutUsListed());
    render(<ContentScreen site={{ ...site, actions: ['content.read'] }} />);
    expect(screen.queryByRole('button', { name: 'New page' })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'About us' }));
    await screen.findByLabelText('Title');
    for (const name of ['Save draft', 'Publish', 'Delete', 'Add block']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('button', { name: 'Preview' })).toBeTruthy();
  });
});
