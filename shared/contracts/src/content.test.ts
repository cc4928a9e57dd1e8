import { describe, expect, expectTypeOf, it } from 'vitest';
import { contentBlockSchema, contentLeadForms, pageContentSchema, pageSeoSchema, type PageContent } from './content';
import { linkTarget, linkTargetMessage } from './link-target';
import type { LeadFormPageProps } from './remote-modules';

const photo = '/img/site/0123456789abcdef0123456789abcdef.png';
const carPhoto = '/img/car/fedcba9876543210fedcba9876543210.jpg';

/** An About page as a dealer would write it: one block of each kind. */
const aboutPage = {
  title: 'About Metro Motor Group',
  seo: { title: 'About us | Metro Motor Group', description: 'Family owned since 1978, in Parramatta and Penrith.', share_image: photo },
  blocks: [
    {
      type: 'hero',
      id: 'hero',
      image: { src: photo, alt: 'Our Parramatta showroom' },
      headline: 'Family owned since 1978',
      text: 'New, used and demo cars, servicing and parts in Western Sydney.',
      cta: { label: 'Browse our cars', to: '/search/used-cars' },
    },
    { type: 'rich_text', id: 'story', html: '<p>We started with <strong>one</strong> yard.</p>' },
    { type: 'image', id: 'yard', image: { src: carPhoto, alt: 'A Toyota HiLux on the yard' }, caption: 'Our first car' },
    { type: 'cta', id: 'finance', headline: 'Need finance?', button: { label: 'Apply', to: 'https://www.lender.example/apply' } },
    { type: 'lead_form', id: 'contact', form: 'contact', title: 'Ask us anything' },
    { type: 'offers_list', id: 'offers', limit: 3 },
    {
      type: 'staff_list',
      id: 'team',
      people: [{ name: 'Sam Citizen', role: 'Dealer Principal', location_id: 1, photo: { src: photo, alt: 'Sam' } }],
      group_by_location: true,
    },
    { type: 'faq', id: 'faq', items: [{ question: 'Do you take trade-ins?', answer_html: '<p>Yes.</p>' }] },
    { type: 'locations', id: 'where', show_hours: true },
  ],
};

/** The messages of a refused page, by the path of their field. */
function refusals(page: unknown): Record<string, string> {
  const result = pageContentSchema.safeParse(page);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

const withBlock = (block: Record<string, unknown>) => ({ ...aboutPage, blocks: [block] });

describe('a content page', () => {
  it('takes a realistic page with every kind of block, and fills in the defaults', () => {
    const page: PageContent = pageContentSchema.parse(aboutPage);
    expect(page.blocks.map((block) => block.type)).toEqual([
      'hero',
      'rich_text',
      'image',
      'cta',
      'lead_form',
      'offers_list',
      'staff_list',
      'faq',
      'locations',
    ]);
    expect(page.blocks[5]).toEqual({ type: 'offers_list', id: 'offers', limit: 3 });
    expect(contentBlockSchema.parse({ type: 'offers_list', id: 'more' })).toEqual({ type: 'offers_list', id: 'more', limit: 6 });
    expect(pageContentSchema.parse({ title: 'Privacy', seo: {}, blocks: [] }).blocks).toEqual([]);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example',
    '/\\evil.example',
    'about',
  ])('refuses a button that goes to %j', (to) => {
    expect(refusals(withBlock({ type: 'cta', id: 'go', button: { label: 'Go', to } }))).toEqual({
      'blocks.0.button.to': linkTargetMessage,
    });
    expect(refusals(withBlock({ type: 'hero', id: 'top', headline: 'Hi', cta: { label: 'Go', to } }))).toEqual({
      'blocks.0.cta.to': linkTargetMessage,
    });
  });

  it.each([
    'https://evil.example/x.png',
    '//evil.example/img/site/0123456789abcdef0123456789abcdef.png',
    '/img/site/0123456789abcdef0123456789abcdef.svg',
    '/img/site/0123456789ABCDEF0123456789ABCDEF.png',
    '/img/car/0123456789abcdef.jpg',
    '/img/site/../../admin/0123456789abcdef0123456789abcdef.png',
    'javascript:alert(1)',
  ])('refuses a picture that is not one the site serves: %j', (src) => {
    expect(refusals(withBlock({ type: 'image', id: 'pic', image: { src, alt: 'A car' } }))).toEqual({
      'blocks.0.image.src': 'Choose a picture uploaded to the site.',
    });
  });

  it('wants words for every picture', () => {
    expect(refusals(withBlock({ type: 'image', id: 'pic', image: { src: photo, alt: ' ' } }))).toEqual({
      'blocks.0.image.alt': 'Describe the picture for shoppers who cannot see it.',
    });
    expect(refusals(withBlock({ type: 'hero', id: 'top', headline: 'Hi', image: { src: photo } }))).toHaveProperty('blocks.0.image.alt');
  });

  it('refuses oversize fields, each with its limit', () => {
    const long = (length: number) => 'x'.repeat(length);
    expect(refusals({ ...aboutPage, title: long(121) })).toEqual({ title: 'At most 120 characters.' });
    expect(refusals({ ...aboutPage, seo: { title: long(71), description: long(161) } })).toEqual({
      'seo.title': 'At most 70 characters: search results cut longer titles.',
      'seo.description': 'At most 160 characters: search results cut longer descriptions.',
    });
    expect(refusals(withBlock({ type: 'rich_text', id: 'text', html: `<p>${long(100_000)}</p>` }))).toEqual({
      'blocks.0.html': 'The text is too long: at most 100,000 characters of formatted text.',
    });
    expect(refusals(withBlock({ type: 'hero', id: 'top', headline: long(121), text: long(301) }))).toEqual({
      'blocks.0.headline': 'At most 120 characters.',
      'blocks.0.text': 'At most 300 characters.',
    });
    expect(refusals(withBlock({ type: 'faq', id: 'faq', items: [{ question: long(201), answer_html: long(5001) }] }))).toEqual({
      'blocks.0.items.0.question': 'At most 200 characters.',
      'blocks.0.items.0.answer_html': 'The answer is too long: at most 5,000 characters of formatted text.',
    });
    expect(refusals(withBlock({ type: 'cta', id: 'go', button: { label: long(61), to: '/' } }))).toEqual({
      'blocks.0.button.label': 'At most 60 characters.',
    });
    expect(refusals(withBlock({ type: 'offers_list', id: 'offers', limit: 25 }))).toEqual({ 'blocks.0.limit': 'Show at most 24 offers.' });
    const blocks = Array.from({ length: 61 }, (_, index) => ({ type: 'rich_text', id: `b${index}`, html: '' }));
    expect(refusals({ ...aboutPage, blocks })).toEqual({ blocks: 'At most 60 blocks on a page.' });
  });

  it('refuses a kind of block it does not know, a form the site has not, and two blocks with one id', () => {
    expect(refusals(withBlock({ type: 'script', id: 'x', html: '<script></script>' }))).toEqual({
      'blocks.0.type': 'This kind of block is not one the site can show.',
    });
    expect(refusals(withBlock({ id: 'x', html: '' }))).toEqual({ 'blocks.0.type': 'This kind of block is not one the site can show.' });
    expect(refusals(withBlock({ type: 'lead_form', id: 'form', form: 'newsletter' }))).toEqual({
      'blocks.0.form': 'Choose one of the site’s enquiry forms.',
    });
    expect(refusals({ ...aboutPage, blocks: [aboutPage.blocks[1], aboutPage.blocks[1]] })).toEqual({
      'blocks.1.id': 'Two blocks have this id.',
    });
    expect(refusals(withBlock({ type: 'rich_text', id: 'Not An Id', html: '' }))).toEqual({
      'blocks.0.id': 'A block id is 1 to 40 lower-case letters, digits or dashes.',
    });
  });

  it('offers the forms mf-leads can show on a page', () => {
    expectTypeOf<(typeof contentLeadForms)[number]>().toEqualTypeOf<LeadFormPageProps['form']>();
    expect(pageSeoSchema.parse({})).toEqual({});
  });
});

describe('where a link a dealer writes may go', () => {
  it.each(['/about', '/search/used-cars?make=Toyota#top', 'https://careers.example.com/metro', 'HTTP://www.example.com'])(
    'takes %j',
    (to) => {
      expect(linkTarget.safeParse(to).success).toBe(true);
    },
  );

  it.each([
    'javascript:alert(1)',
    'data:text/html,x',
    'vbscript:x',
    'mailto:a@b.example',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    'https://',
    'about',
    '',
  ])('refuses %j', (to) => {
    expect(linkTarget.safeParse(to).error?.issues[0]?.message).toBe(linkTargetMessage);
  });
});
