/**
 * A content page as the dealer writes it in the console (issue 24 part 3): a title, its search
 * and share details, and a list of blocks the site shows in order.
 *
 * Browser-safe: no sanitiser here. The html of rich text and FAQ answers is checked for length only;
 * the server sanitises it before it is stored (platform/server/src/content/sanitize-html.ts).
 */
import { z } from 'zod';
import { linkTarget } from './link-target';
import type { LeadFormPageProps } from './remote-modules';

/** A picture the platform serves itself: a dealer's upload (`/img/site/<hash>.png`) or a car photo (`/img/car/<hash>.jpg`). */
export const siteImagePattern = /^\/img\/(?:site\/[0-9a-f]{32}\.png|car\/[0-9a-f]{32}\.jpg)$/;

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

/** The team: of the chosen locations (all when none), grouped by location or in one list. */
export const staffListBlockSchema = z.object({
  type: z.literal('staff_list'),
  id: blockId,
  location_ids: ids(50, 'Choose at most 50 locations.').optional(),
  group_by_location: z.boolean().default(false),
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
