// The content editor's pure parts: the form a page, post, offer, job, search page or the search page
// template is written in, the blocks list and its changes, what is sent to the server, and where each
// refused field's message goes.
import {
  contentLeadForms,
  employmentTypes,
  type ContentBlock,
  type ContentBlockType,
  type ContentKind,
  type PageSeo,
  type SearchPreset,
  type SearchTemplateContent,
} from '@dealer/contracts/content';
import type { FieldHelpers } from './settings-fields';

export type ContentState = 'draft' | 'published' | 'changed';

/** A row of the list (`GET …/content?kind=`). */
export type ContentListing = {
  id: number;
  kind: ContentKind;
  slug: string;
  title: string;
  state: ContentState;
  published_at: number | null;
  expires_at: number | null;
  updated_at: number;
};

/** One piece of content with its draft and what the site shows (`GET …/content/:id`). */
export type ContentRecord = {
  id: number;
  kind: ContentKind;
  slug: string;
  draft: unknown;
  published: unknown;
  published_at: number | null;
  updated_at: number;
  path: string;
};

export type ContentImage = { src: string; alt: string };
export type EmploymentType = (typeof employmentTypes)[number];
export type LeadForm = (typeof contentLeadForms)[number];
export type CarType = NonNullable<SearchPreset['car_type']>;

/** A search page's preset as its fields hold it: '' is any. */
export type PresetForm = { car_type: CarType | ''; make: string; model: string; body: string; fuel: string };
export const emptyPreset: PresetForm = { car_type: '', make: '', model: '', body: '', fuel: '' };

/** Every kind's fields in one form; what is sent keeps only the kind's own (`versionOf`). */
export type ContentForm = {
  title: string;
  blocks: ContentBlock[];
  seo: PageSeo;
  summary: string;
  image?: ContentImage;
  author?: string;
  car_ids: number[];
  terms_html: string;
  /** ms; 0 until the dealer chooses the day the offer ends. */
  expires_at: number;
  location_id?: number;
  employment_type: EmploymentType;
  body_html: string;
  closes_at?: number;
  preset: PresetForm;
  /** A search page's own intro, or the template's intro. */
  intro_html: string;
  /** The template's description. */
  description: string;
};

/** The tabs and buttons of each kind, in the dealer's words. */
export const kindWords: Record<ContentKind, { tab: string; one: string; add: string; none: string }> = {
  page: { tab: 'Pages', one: 'page', add: 'New page', none: 'No pages yet.' },
  post: { tab: 'News', one: 'post', add: 'New post', none: 'No news posts yet.' },
  offer: { tab: 'Offers', one: 'offer', add: 'New offer', none: 'No special offers yet.' },
  job: { tab: 'Jobs', one: 'job', add: 'New job', none: 'No jobs yet.' },
  landing: { tab: 'Search pages', one: 'search page', add: 'New search page', none: 'No search pages yet.' },
  search_template: { tab: 'Search page template', one: 'search page template', add: '', none: '' },
};

/** The screen's tabs: the search page template is edited in the search pages' tab, as the site has one. */
export const contentTabs = ['page', 'post', 'offer', 'job', 'landing'] as const satisfies readonly ContentKind[];
export type ContentTab = (typeof contentTabs)[number];

/**
 * The template a site has before its dealer writes one: a copy of `defaultSearchTemplate` in
 * `@dealer/rules/search-pages`, which the console does not depend on (that module brings the default
 * legal pages with it). content-model.test.ts keeps the two equal.
 */
export const defaultSearchTemplate: SearchTemplateContent = {
  title: '{condition} {make} {model} {body} {fuel} for sale in {city}',
  intro_html:
    '<p>Browse our {condition} {make} {model} {body} {fuel} stock at {site} in {city}. Enquire online, book a test drive or apply for finance.</p>',
  description: 'Find {condition} {make} {model} {body} {fuel} cars for sale at {site} in {city}: photos, prices and finance.',
};

/** What a template may say, filled from each search page's preset and the site's details. */
export const templatePlaceholders = ['{make}', '{model}', '{condition}', '{body}', '{fuel}', '{city}', '{site}'];

export const stateWords: Record<ContentState, string> = {
  draft: 'Draft',
  published: 'Published',
  changed: 'Unpublished changes',
};

/** A record's state, as the list would say it. */
export const stateOf = (record: Pick<ContentRecord, 'draft' | 'published'>): ContentState =>
  record.published === null ? 'draft' : record.draft === null ? 'published' : 'changed';

export const blockWords: Record<ContentBlockType, string> = {
  rich_text: 'Rich text',
  image: 'Picture',
  hero: 'Hero banner',
  cta: 'Call to action',
  lead_form: 'Enquiry form',
  offers_list: 'Special offers',
  staff_list: 'Team',
  faq: 'Questions and answers',
  locations: 'Locations',
  jobs_list: 'Open jobs',
  posts_list: 'Latest news',
  featured_stock: 'Featured cars',
  reviews: 'Reviews',
};
export const blockTypes = Object.keys(blockWords) as ContentBlockType[];

export const leadFormWords: Record<LeadForm, string> = {
  contact: 'Contact us',
  finance: 'Finance',
  service: 'Service booking',
  'test-drive': 'Test drive',
  'trade-in': 'Trade-in',
  careers: 'Careers',
};

/** Where the site shows it (as the server's `contentPath` says; a page's `pages/` is dropped when stored). */
export function pathOf(kind: ContentKind, slug: string, section: 'blog' | 'news' = 'blog'): string {
  if (kind === 'post') return `/${section}/${slug}`;
  if (kind === 'offer') return `/special-offers/${slug}`;
  if (kind === 'job') return '/careers';
  if (kind === 'landing') return `/search/${slug}`;
  if (kind === 'search_template') return '/';
  const page = slug.replace(/^pages\//, '');
  return page === 'home' ? '/' : `/${page}`;
}

/** An address from a title: lower-case words joined by dashes. */
export const slugOf = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');

/** A search page's address from its preset, in the template's order: used-toyota-hilux. */
export const presetSlug = (preset: PresetForm) => slugOf([preset.car_type, preset.make, preset.model, preset.body, preset.fuel].join(' '));

/** What a preset sends: its chosen facets only. */
export function presetOf(form: PresetForm): SearchPreset {
  const preset: SearchPreset = {};
  if (form.car_type) preset.car_type = form.car_type;
  for (const facet of ['make', 'model', 'body', 'fuel'] as const) {
    const value = form[facet].trim();
    if (value) preset[facet] = value;
  }
  return preset;
}

/** A new item's form (a job starts as full time). */
export function emptyForm(): ContentForm {
  return {
    title: '',
    blocks: [],
    seo: {},
    summary: '',
    car_ids: [],
    terms_html: '',
    expires_at: 0,
    employment_type: employmentTypes[0],
    body_html: '',
    preset: emptyPreset,
    intro_html: '',
    description: '',
  };
}

/** The form for a stored version (the draft, or what the site shows when there is no draft). */
export function formOf(version: unknown): ContentForm {
  const stored = (version ?? {}) as Partial<Omit<ContentForm, 'preset'>> & { preset?: SearchPreset };
  return {
    ...emptyForm(),
    ...stored,
    seo: stored.seo ?? {},
    blocks: stored.blocks ?? [],
    terms_html: stored.terms_html ?? '',
    body_html: stored.body_html ?? '',
    preset: { ...emptyPreset, ...stored.preset },
    intro_html: stored.intro_html ?? '',
    description: stored.description ?? '',
  };
}

const filled = (text: string | undefined) => (text?.trim() ? text : undefined);

/**
 * What is sent: the kind's own fields, optional text left out when empty (a search page without its own
 * title or intro takes the template's). A template is sent as written, its placeholders included.
 */
export function versionOf(kind: ContentKind, form: ContentForm): Record<string, unknown> {
  if (kind === 'landing')
    return {
      preset: presetOf(form.preset),
      title: filled(form.title),
      intro_html: filled(form.intro_html),
      seo: { title: filled(form.seo.title), description: filled(form.seo.description) },
    };
  if (kind === 'search_template') return { title: form.title, intro_html: form.intro_html, description: form.description };
  if (kind === 'job')
    return {
      title: form.title,
      location_id: form.location_id,
      employment_type: form.employment_type,
      summary: form.summary,
      body_html: form.body_html,
      closes_at: form.closes_at,
    };
  const page = {
    title: form.title,
    blocks: form.blocks.map(sentBlock),
    seo: { title: filled(form.seo.title), description: filled(form.seo.description), share_image: filled(form.seo.share_image) },
  };
  if (kind === 'post') return { ...page, summary: form.summary, image: form.image, author: filled(form.author) };
  if (kind === 'offer')
    return {
      ...page,
      summary: form.summary,
      image: form.image,
      car_ids: form.car_ids,
      terms_html: filled(form.terms_html),
      expires_at: form.expires_at,
    };
  return page;
}

/** A hero's button is optional: one with neither a label nor a link is left out. */
function sentBlock(block: ContentBlock): ContentBlock {
  if (block.type === 'hero' && block.cta && !block.cta.label.trim() && !block.cta.to.trim()) return { ...block, cta: undefined };
  return block;
}

/** A new block of a type, with what the dealer would start from. */
export function newBlock(type: ContentBlockType, id: string): ContentBlock {
  switch (type) {
    case 'rich_text':
      return { type, id, html: '' };
    case 'image':
      return { type, id, image: { src: '', alt: '' }, caption: '' };
    case 'hero':
      return { type, id, headline: '', text: '' };
    case 'cta':
      return { type, id, headline: '', text: '', button: { label: '', to: '' } };
    case 'lead_form':
      return { type, id, form: 'contact', title: '' };
    case 'offers_list':
      return { type, id, limit: 6 };
    case 'staff_list':
      return { type, id, people: [{ name: '', role: '' }], group_by_location: false };
    case 'faq':
      return { type, id, items: [{ question: '', answer_html: '' }] };
    case 'locations':
      return { type, id, show_hours: true };
    case 'posts_list':
      return { type, id, limit: 3 };
    case 'featured_stock':
      return { type, id, title: '', limit: 8 };
    case 'reviews':
      return { type, id, title: '' };
    case 'jobs_list':
      return { type, id };
  }
}

/** A block id the page has not used: its type and a random tail (ids only need to differ within a page). */
export function newBlockId(type: ContentBlockType, taken: string[]): string {
  for (;;) {
    const id = `${type.replace(/_/g, '-')}-${Math.random().toString(36).slice(2, 8)}`;
    if (!taken.includes(id)) return id;
  }
}

export type BlockAction =
  | { type: 'add'; blockType: ContentBlockType; id: string }
  | { type: 'move'; id: string; by: -1 | 1 }
  | { type: 'remove'; id: string }
  | { type: 'change'; id: string; patch: Partial<ContentBlock> };

/** The blocks after one change the dealer makes. */
export function blocksReducer(blocks: ContentBlock[], action: BlockAction): ContentBlock[] {
  switch (action.type) {
    case 'add':
      return [...blocks, newBlock(action.blockType, action.id)];
    case 'remove':
      return blocks.filter((block) => block.id !== action.id);
    case 'change':
      return blocks.map((block) =>
        block.id === action.id ? ({ ...block, ...action.patch, type: block.type, id: block.id } as ContentBlock) : block,
      );
    case 'move': {
      const from = blocks.findIndex((block) => block.id === action.id);
      const to = from + action.by;
      if (from < 0 || to < 0 || to >= blocks.length) return blocks;
      const next = [...blocks];
      [next[from], next[to]] = [next[to]!, next[from]!];
      return next;
    }
  }
}

/** Each block's heading: its kind and its number among blocks of that kind ("Rich text 1", "Rich text 2"). */
export function blockHeadings(blocks: ContentBlock[]): string[] {
  const seen = new Map<ContentBlockType, number>();
  return blocks.map((block) => {
    const number = (seen.get(block.type) ?? 0) + 1;
    seen.set(block.type, number);
    return `${blockWords[block.type]} ${number}`;
  });
}

/** The messages of a refusal, placed: the form's own fields by path, and each block's by the block's id. */
export type PlacedErrors = { form: Record<string, string>; blocks: Record<string, Record<string, string>> };
export const noErrors: PlacedErrors = { form: {}, blocks: {} };

/**
 * Places the server's field paths: `content.blocks.2.headline` onto the block sent third (by its id, so
 * the message stays with its block when blocks move), `content.title` onto `title`, `slug` onto `slug`.
 */
export function placeErrors(fields: Record<string, string>, sentBlockIds: string[]): PlacedErrors {
  const placed: PlacedErrors = { form: {}, blocks: {} };
  for (const [path, message] of Object.entries(fields)) {
    const inContent = path.replace(/^content\./, '');
    const inBlock = /^blocks\.(\d+)(?:\.(.+))?$/.exec(inContent);
    const id = inBlock ? sentBlockIds[Number(inBlock[1])] : undefined;
    if (inBlock && id) (placed.blocks[id] ??= {})[inBlock[2] ?? ''] ??= message;
    else placed.form[inContent] ??= message;
  }
  return placed;
}

/** The error helpers of the form or of one block: its messages by path, and ids unique on the page. */
export type ContentFields = FieldHelpers & {
  /** The message of a path or of anything under it (a list's items: `car_ids.3` for `car_ids`). */
  within: (path: string) => string | null;
};

export function contentFields(messages: Record<string, string>, scope: string): ContentFields {
  const errorId = (path: string) => `${scope}-${path || 'block'}-error`.replace(/\W/g, '-');
  const message = (path: string) => messages[path] ?? null;
  return {
    message,
    errorId,
    invalid: (path: string) => (messages[path] ? { 'aria-invalid': true as const, 'aria-describedby': errorId(path) } : {}),
    within: (path: string) => message(path) ?? Object.entries(messages).find(([key]) => key.startsWith(`${path}.`))?.[1] ?? null,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The last moment of a day (`YYYY-MM-DD`, the dealer's own time zone): an offer ends, or applications close, at its end. */
export function endOfDay(day: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999).getTime();
}

/** The day (`YYYY-MM-DD`) a moment falls on, for a date input; '' for none. */
export function dayOf(ms: number | undefined): string {
  if (!ms) return '';
  const date = new Date(ms);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Numbers separated by commas (car or offer ids); `wrong` when a part is not a whole number above 0. */
export function idsOf(text: string): { ids: number[]; wrong: boolean } {
  const parts = text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const ids = parts.filter((part) => /^\d+$/.test(part) && Number(part) > 0).map(Number);
  return { ids, wrong: ids.length !== parts.length };
}
