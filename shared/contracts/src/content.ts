/**
 * A content page as the dealer writes it in the console (issue 24 part 3): a title, its search
 * and share details, and a list of blocks the site shows in order.
 *
 * Browser-safe: no sanitiser here. The html of rich text and FAQ answers is checked for length only;
 * the server sanitises it before it is stored (platform/server/src/content/sanitize-html.ts).
 */
import { z } from 'zod';
import { carTypes } from './car-values';
import { linkTarget } from './link-target';
import type { LeadFormPageProps } from './remote-modules';

/**
 * A picture the platform serves itself: a dealer's upload (`/img/site/<hash>.png`, or a photo through the
 * car-photo pipeline at `/img/car/<hash>.jpg`) or one of the platform's drawn vehicle photos
 * (`/img/vehicle/<category>/<body>/<colour>/<variant>.jpg`, which the demo sites use).
 */
export const siteImagePattern =
  /^\/img\/(?:site\/[0-9a-f]{32}\.png|car\/[0-9a-f]{32}\.jpg|vehicle\/[a-z]+\/[a-z0-9-]+\/[a-z0-9-]+\/\d{1,2}\.jpg)$/;

export const siteImageUrlSchema = z.string().trim().regex(siteImagePattern, 'Choose a picture uploaded to the site.');

/** A picture with the words a screen reader says for it. */
export const contentImageSchema = z.object({
  src: siteImageUrlSchema,
  alt: z.string().trim().min(1, 'Describe the picture for shoppers who cannot see it.').max(200, 'At most 200 characters.'),
});

/** A button: what it says and where it goes (a page of the site or a web address, never script). */
export const ctaLinkSchema = z.object({
  label: z.string().trim().min(1, 'Give the button a label.').max(60, 'At most 60 characters.'),
  to: linkTarget,
});

/** The forms a page can hold: those the platform's lead forms know (mf-leads' `LeadFormPage`). */
export const contentLeadForms = [
  'contact',
  'finance',
  'service',
  'test-drive',
  'trade-in',
  'careers',
] as const satisfies readonly LeadFormPageProps['form'][];

/** The longest rich text (characters of html) and the longest FAQ answer. */
export const richTextMaxChars = 100_000;
export const faqAnswerMaxChars = 5_000;

/** Each block's id, so the console can move and edit one and map an error onto it. */
const blockId = z.string().regex(/^[a-z0-9-]{1,40}$/, 'A block id is 1 to 40 lower-case letters, digits or dashes.');
/** Ids of the site's locations (or offers): none means all. */
const ids = (most: number, message: string) => z.array(z.number().int().positive()).max(most, message);

const headline = z.string().trim().min(1, 'Give it a headline.').max(120, 'At most 120 characters.');
const shortText = z.string().trim().max(300, 'At most 300 characters.');

export const richTextBlockSchema = z.object({
  type: z.literal('rich_text'),
  id: blockId,
  html: z.string().max(richTextMaxChars, 'The text is too long: at most 100,000 characters of formatted text.'),
});

export const imageBlockSchema = z.object({
  type: z.literal('image'),
  id: blockId,
  image: contentImageSchema,
  caption: z.string().trim().max(200, 'At most 200 characters.').optional(),
});

/** The wide picture and headline at the top of a page (the home page's first block). */
export const heroBlockSchema = z.object({
  type: z.literal('hero'),
  id: blockId,
  image: contentImageSchema.optional(),
  headline,
  text: shortText.optional(),
  cta: ctaLinkSchema.optional(),
});

export const ctaBlockSchema = z.object({
  type: z.literal('cta'),
  id: blockId,
  headline: headline.optional(),
  text: shortText.optional(),
  button: ctaLinkSchema,
});

export const leadFormBlockSchema = z.object({
  type: z.literal('lead_form'),
  id: blockId,
  form: z.enum(contentLeadForms, 'Choose one of the site’s enquiry forms.'),
  title: z.string().trim().max(120, 'At most 120 characters.').optional(),
});

/** The site's current offers: the chosen ones, or the newest `limit`. */
export const offersListBlockSchema = z.object({
  type: z.literal('offers_list'),
  id: blockId,
  limit: z.number().int().min(1, 'Show at least 1 offer.').max(24, 'Show at most 24 offers.').default(6),
  offer_ids: ids(24, 'Choose at most 24 offers.').optional(),
});

/** One person of the team, as the dealer writes them into the page. */
export const staffMemberSchema = z.object({
  name: z.string().trim().min(1, 'Write the person’s name.').max(80, 'At most 80 characters.'),
  role: z.string().trim().max(80, 'At most 80 characters.').default(''),
  location_id: z.number().int().positive().optional(),
  photo: contentImageSchema.optional(),
  phone: z.string().trim().max(30, 'At most 30 characters.').optional(),
  email: z.email('Write an e-mail address such as sam@dealer.com.au.').max(254).optional(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

/** The team, written into the page, in one list or grouped by location. */
export const staffListBlockSchema = z.object({
  type: z.literal('staff_list'),
  id: blockId,
  people: z.array(staffMemberSchema).min(1, 'Add a person.').max(100, 'At most 100 people.'),
  group_by_location: z.boolean().default(false),
});

/** The site's open jobs (the careers page). */
export const jobsListBlockSchema = z.object({
  type: z.literal('jobs_list'),
  id: blockId,
});

/** The newest news posts. */
export const postsListBlockSchema = z.object({
  type: z.literal('posts_list'),
  id: blockId,
  limit: z.number().int().min(1, 'Show at least 1 post.').max(12, 'Show at most 12 posts.').default(3),
});

/**
 * Cars from the site's stock (the home page's featured stock): the chosen ones, or the newest `limit`.
 * Shown only while the site's "stock on the home page" switch is on.
 */
export const featuredStockBlockSchema = z.object({
  type: z.literal('featured_stock'),
  id: blockId,
  title: z.string().trim().max(120, 'At most 120 characters.').optional(),
  car_ids: ids(12, 'Choose at most 12 cars.').optional(),
  limit: z.number().int().min(4, 'Show at least 4 cars.').max(12, 'Show at most 12 cars.').default(8),
});

/** The Google reviews of the site's locations (SPEC §9: 4 stars and up). */
export const reviewsBlockSchema = z.object({
  type: z.literal('reviews'),
  id: blockId,
  title: z.string().trim().max(120, 'At most 120 characters.').optional(),
});

export const faqItemSchema = z.object({
  question: z.string().trim().min(1, 'Write the question.').max(200, 'At most 200 characters.'),
  answer_html: z
    .string()
    .min(1, 'Write the answer.')
    .max(faqAnswerMaxChars, 'The answer is too long: at most 5,000 characters of formatted text.'),
});

export const faqBlockSchema = z.object({
  type: z.literal('faq'),
  id: blockId,
  items: z.array(faqItemSchema).min(1, 'Add a question.').max(50, 'At most 50 questions.'),
});

/** The site's locations (the chosen ones, or all) with their addresses and, if wanted, opening hours. */
export const locationsBlockSchema = z.object({
  type: z.literal('locations'),
  id: blockId,
  location_ids: ids(50, 'Choose at most 50 locations.').optional(),
  show_hours: z.boolean().default(true),
});

export const contentBlockSchema = z.discriminatedUnion(
  'type',
  [
    richTextBlockSchema,
    imageBlockSchema,
    heroBlockSchema,
    ctaBlockSchema,
    leadFormBlockSchema,
    offersListBlockSchema,
    staffListBlockSchema,
    faqBlockSchema,
    locationsBlockSchema,
    jobsListBlockSchema,
    postsListBlockSchema,
    featuredStockBlockSchema,
    reviewsBlockSchema,
  ],
  { error: 'This kind of block is not one the site can show.' },
);
export type ContentBlock = z.infer<typeof contentBlockSchema>;
export type ContentBlockType = ContentBlock['type'];

/** What search engines and shared links show; each falls back to the page's own title and the site's details. */
export const pageSeoSchema = z.object({
  title: z.string().trim().max(70, 'At most 70 characters: search results cut longer titles.').optional(),
  description: z.string().trim().max(160, 'At most 160 characters: search results cut longer descriptions.').optional(),
  share_image: siteImageUrlSchema.optional(),
});
export type PageSeo = z.infer<typeof pageSeoSchema>;

export const pageContentSchema = z.object({
  title: z.string().trim().min(1, 'Give the page a title.').max(120, 'At most 120 characters.'),
  blocks: z
    .array(contentBlockSchema)
    .max(60, 'At most 60 blocks on a page.')
    .superRefine((blocks, context) => {
      const seen = new Set<string>();
      blocks.forEach((block, index) => {
        if (seen.has(block.id)) context.addIssue({ code: 'custom', path: [index, 'id'], message: 'Two blocks have this id.' });
        seen.add(block.id);
      });
    }),
  seo: pageSeoSchema,
});
export type PageContent = z.infer<typeof pageContentSchema>;

/** What a page's address may be: lower-case words and dashes, one level under `pages/` at most (SPEC §5's slug rule). */
export const pageSlugSchema = z
  .string()
  .trim()
  .regex(/^(?:pages\/)?[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters, digits and dashes, such as about-us.')
  .max(80, 'At most 80 characters.');

/** A news post: a page with a summary for the list, a picture and who wrote it. */
export const postContentSchema = pageContentSchema.extend({
  summary: z.string().trim().max(300, 'At most 300 characters.').default(''),
  image: contentImageSchema.optional(),
  author: z.string().trim().max(80, 'At most 80 characters.').optional(),
});
export type PostContent = z.infer<typeof postContentSchema>;

/** A special offer: a page with a summary, a picture, the cars it covers, its terms and when it ends. */
export const offerContentSchema = pageContentSchema.extend({
  summary: z.string().trim().max(300, 'At most 300 characters.').default(''),
  image: contentImageSchema.optional(),
  car_ids: ids(50, 'Choose at most 50 cars.').default([]),
  terms_html: z.string().max(faqAnswerMaxChars, 'The terms are too long: at most 5,000 characters of formatted text.').optional(),
  /** When the offer ends (ms since 1970): it leaves the site then. */
  expires_at: z.number().int().positive('Say when the offer ends.'),
});
export type OfferContent = z.infer<typeof offerContentSchema>;

export const employmentTypes = ['Full time', 'Part time', 'Casual', 'Contract', 'Apprenticeship'] as const;

/** A job at the dealership, listed on the careers page until it closes. */
export const jobContentSchema = z.object({
  title: z.string().trim().min(1, 'Give the job a title.').max(120, 'At most 120 characters.'),
  location_id: z.number().int().positive().optional(),
  employment_type: z.enum(employmentTypes, 'Choose full time, part time, casual, contract or apprenticeship.'),
  summary: z.string().trim().max(300, 'At most 300 characters.').default(''),
  body_html: z.string().max(richTextMaxChars, 'The text is too long: at most 100,000 characters of formatted text.').default(''),
  /** When applications close (ms since 1970); none: open until taken down. */
  closes_at: z.number().int().positive().optional(),
});
export type JobContent = z.infer<typeof jobContentSchema>;

/** A search landing page's filter (SPEC §7's search slugs): the stock it lists, by these facets. */
export const searchPresetSchema = z
  .object({
    car_type: z.enum(carTypes, 'Choose new, used or demo.').optional(),
    make: z.string().trim().min(1).max(40, 'At most 40 characters.').optional(),
    model: z.string().trim().min(1).max(60, 'At most 60 characters.').optional(),
    body: z.string().trim().min(1).max(30, 'At most 30 characters.').optional(),
    fuel: z.string().trim().min(1).max(30, 'At most 30 characters.').optional(),
  })
  .refine((preset) => Object.values(preset).some(Boolean), 'Choose at least one of condition, make, model, body or fuel.');
export type SearchPreset = z.infer<typeof searchPresetSchema>;

/**
 * A search landing page (`/search/<slug>`, such as /search/used-toyota-hilux): the stock of its
 * preset, with a title and intro of its own or else from the site's search page template.
 */
export const landingContentSchema = z.object({
  preset: searchPresetSchema,
  title: z.string().trim().max(120, 'At most 120 characters.').optional(),
  intro_html: z.string().max(faqAnswerMaxChars, 'The intro is too long: at most 5,000 characters of formatted text.').optional(),
  seo: pageSeoSchema,
});
export type LandingContent = z.infer<typeof landingContentSchema>;

/**
 * The site's template for its search landing pages (SPEC §7's search page templates), one per site
 * (slug `default`): `{make} {model} {condition} {body} {fuel} {city} {site}` are filled from each page's preset.
 */
export const searchTemplateContentSchema = z.object({
  title: z.string().trim().min(1, 'Write the title template.').max(120, 'At most 120 characters.'),
  intro_html: z.string().max(faqAnswerMaxChars, 'The intro is too long: at most 5,000 characters of formatted text.').default(''),
  description: z.string().trim().max(300, 'At most 300 characters.').default(''),
});
export type SearchTemplateContent = z.infer<typeof searchTemplateContentSchema>;

/** What a landing page shows, filled in (`GET /api/search-pages/:slug`): mf-search adds `filters` to its own. */
export interface SearchLanding {
  slug: string;
  title: string;
  intro_html: string;
  description: string;
  filters: string[];
}

export const contentKinds = ['page', 'post', 'offer', 'job', 'landing', 'search_template'] as const;
export type ContentKind = (typeof contentKinds)[number];

/** Each kind's version, as stored and as the console sends it. */
export const contentSchemas = {
  page: pageContentSchema,
  post: postContentSchema,
  offer: offerContentSchema,
  job: jobContentSchema,
  landing: landingContentSchema,
  search_template: searchTemplateContentSchema,
} as const;
export type ContentOf<K extends ContentKind> = z.infer<(typeof contentSchemas)[K]>;

// ---- What the site renders: references replaced by the data they point at. ----

/** A post in a list. */
export interface PostCard {
  slug: string;
  title: string;
  summary: string;
  image: { src: string; alt: string } | null;
  published_at: number;
}

/** An offer in a list. */
export interface OfferCard {
  slug: string;
  title: string;
  summary: string;
  image: { src: string; alt: string } | null;
  expires_at: number;
}

/** An open job. */
export interface JobCard {
  slug: string;
  title: string;
  employment_type: string;
  location_name: string | null;
  summary: string;
  body_html: string;
  closes_at: number | null;
}

/** A car in a list (featured stock, an offer's cars): what a card shows. */
export interface CarCard {
  id: number;
  slug: string;
  name: string;
  year: number;
  km: number;
  price: number;
  before_price: number | null;
  car_type: string;
  primary_image_url: string;
  location_name: string;
}

/** A Google review of one of the site's locations. */
export interface ReviewCard {
  author: string;
  rating: number;
  text: string;
  reviewed_at: number;
  location_name: string;
}

/** A block with what it points at filled in. */
export type ResolvedBlock =
  | Exclude<ContentBlock, { type: 'offers_list' | 'jobs_list' | 'posts_list' | 'featured_stock' | 'reviews' }>
  | (Extract<ContentBlock, { type: 'offers_list' }> & { offers: OfferCard[] })
  | (Extract<ContentBlock, { type: 'jobs_list' }> & { jobs: JobCard[] })
  | (Extract<ContentBlock, { type: 'posts_list' }> & { posts: PostCard[]; section: 'blog' | 'news' })
  | (Extract<ContentBlock, { type: 'featured_stock' }> & { cars: CarCard[]; detail_path: string })
  | (Extract<ContentBlock, { type: 'reviews' }> & {
      reviews: ReviewCard[];
      locations: { name: string; rating: number; count: number }[];
    });

/**
 * A page as the site shows it, sent with the document (`#route-data`) and by `GET /api/pages?path=`.
 * `post` and `offer` carry their own details; `blog` is the list of posts, one page of them.
 */
export interface ResolvedPage {
  kind: 'page' | 'home' | 'post' | 'offer' | 'blog';
  path: string;
  title: string;
  /** The document's title (its SEO title, with the site's name): set on the server, kept when the shopper navigates to it. */
  document_title?: string;
  blocks: ResolvedBlock[];
  post?: { published_at: number; updated_at: number; author: string | null; image: { src: string; alt: string } | null };
  offer?: {
    expires_at: number;
    image: { src: string; alt: string } | null;
    terms_html: string | null;
    cars: CarCard[];
    detail_path: string;
  };
  blog?: { section: 'blog' | 'news'; posts: PostCard[]; page: number; pages: number };
}
