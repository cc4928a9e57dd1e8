/**
 * Search landing pages (issue 24; SPEC §7's search slugs and search page templates): a dealer's
 * `/search/used-toyota-hilux` lists the stock of its preset under a title and intro made from the
 * site's template. Pure: the platform fills them, mf-search shows them.
 */
import type { SearchPreset, SearchTemplateContent } from '@dealer/contracts/content';
import type { SiteConfig } from '@dealer/contracts/site';
import { escapeHtml } from './default-legal-pages';
import { fitText } from './default-pages';
import { stripQuotes } from './search-query';

/** The template a site has before its dealer writes one. */
export const defaultSearchTemplate: SearchTemplateContent = {
  title: '{condition} {make} {model} {body} {fuel} for sale in {city}',
  intro_html:
    '<p>Browse our {condition} {make} {model} {body} {fuel} stock at {site} in {city}. Enquire online, book a test drive or apply for finance.</p>',
  description: 'Find {condition} {make} {model} {body} {fuel} cars for sale at {site} in {city}: photos, prices and finance.',
};

const conditions: Record<string, string> = { new: 'New', used: 'Used', demo: 'Demo' };

/** Search filters of a preset, on the facets the index names (`car_type`, `make`, `model`, `body`, `fuel`). */
export function presetFilters(preset: SearchPreset): string[] {
  const facets = ['car_type', 'make', 'model', 'body', 'fuel'] as const;
  return facets.flatMap((facet) => (preset[facet] ? [`${facet} = "${stripQuotes(preset[facet])}"`] : []));
}

type TemplateSite = Pick<SiteConfig, 'name' | 'address'>;

/** A template's placeholders filled with the preset's values (escaped for html when `html`), words left empty closed up. */
function fill(template: string, preset: SearchPreset, site: TemplateSite, html: boolean): string {
  const values: Record<string, string> = {
    condition: preset.car_type ? conditions[preset.car_type]! : '',
    make: preset.make ?? '',
    model: preset.model ?? '',
    body: preset.body ?? '',
    fuel: preset.fuel ?? '',
    city: site.address.city,
    site: site.name,
  };
  const filled = template.replace(/\{(condition|make|model|body|fuel|city|site)\}/g, (_, key: string) =>
    html ? escapeHtml(values[key]!) : values[key]!,
  );
  const tidy = filled
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ ([.,:;!?])/g, '$1')
    .replace(/> /g, '>')
    .trim();
  return html ? tidy : tidy.replace(/^\w/, (first) => first.toUpperCase());
}

/**
 * A landing page's title (≤ 70, as search results show), intro and description (≤ 160): its own where the
 * dealer wrote them, else the site's template filled from its preset.
 */
export function fillSearchLanding(
  landing: { preset: SearchPreset; title?: string; intro_html?: string; seo?: { title?: string; description?: string } },
  template: SearchTemplateContent | null,
  site: TemplateSite,
): { title: string; intro_html: string; description: string; seoTitle: string } {
  const used = template ?? defaultSearchTemplate;
  const title = landing.title || fill(used.title, landing.preset, site, false);
  return {
    title: fitText(title, 120),
    seoTitle: fitText(landing.seo?.title || title, 70),
    intro_html: landing.intro_html ?? fill(used.intro_html, landing.preset, site, true),
    description: fitText(landing.seo?.description || fill(used.description, landing.preset, site, false), 160),
  };
}
