import type { Car } from '@dealer/contracts/car';
import type { ResolvedPage } from '@dealer/contracts/content';
import { documentSite, type PublicSiteConfig } from '@dealer/contracts/site';
import { imageQuality, imageSrcSet, imageUrl, deviceWidths } from '@dealer/rules/images';
import type { AdContent } from '@dealer/rules/ad-tracking';
import { drawnIconPath, isDrawnLogo } from '@dealer/rules/wordmark';
import { ogLocale } from './seo';

/** The shell's initial files (assets.json); `firstPaint`: the first script, bundled alone, when there is one. */
export type DocumentAssets = {
  js: string[];
  css: string[];
  firstPaint?: string;
  /** Of `css`, the text of those small enough to inline (`<style data-href>`): the page paints without waiting for another request. */
  inlineCss?: Readonly<Record<string, string>>;
};

/** How the page looks when shared (Open Graph, Twitter card); every address absolute. */
export type SocialMeta = {
  type: 'website' | 'product' | 'article';
  title: string;
  description: string;
  url: string;
  /** Width and height when known (a drawn or vehicle photo at 1200 × 900); an uploaded picture keeps its own proportions. */
  image?: { url: string; width?: number; height?: number; alt: string } | null;
  /** A product's shown price (Open Graph product:price). */
  price?: { amount: number; currency: string } | null;
};

export type DocumentInput = {
  site: PublicSiteConfig;
  title: string;
  description: string;
  canonicalUrl: string;
  shellAssets: DocumentAssets;
  /** The route remote's entry and first chunks (the browser's runtime loads the entry itself, not the manifest). */
  remotePreloads: { js: string[]; css: string[] };
  heroImage: { path: string; sizes: string } | null;
  routeData: { car?: Car; content?: ResolvedPage } | null;
  robots?: string;
  /** Open Graph and Twitter card tags; none on error pages. */
  social?: SocialMeta | null;
  /** schema.org objects, one `application/ld+json` script each. */
  jsonLd?: readonly unknown[];
  /** The app's server-rendered markup, as text or UTF-8 bytes (the browser hydrates it); none: the browser renders the page. */
  appHtml?: string | Uint8Array | null;
  /** What the browser hydrates the server's remote modules with (their names and API answers). */
  appState?: unknown;
  /** `appState` already written as script JSON (`scriptJson`), by the thread that rendered the page. */
  appStateJson?: string;
  /**
   * The files of the other remote modules in `appHtml` (a car page's buttons, a card's Save; the
   * registry's `moduleFiles`): the first script fetches them ahead with the route remote's once the
   * page has settled.
   */
  moduleFiles?: readonly { href: string; as: 'script' | 'style' }[];
  /** Stylesheets of the route's remote: applied at once (its markup is in `appHtml`, or it renders as soon as its code arrives), not merely preloaded. */
  appStylesheets?: readonly string[];
  /** Of those, the ones inlined (`<style data-href>`, which the CSS loader recognises as loaded). */
  inlineStyles?: readonly { href: string; css: string }[];
  /**
   * Where the browser fetches the site config (`/api/site?v=<version>`, cached by the browser) when
   * the page is server-rendered: then the document does not carry it. Without it, or when the page
   * is left to the browser (whose first frame draws the header from it), the config is inline.
   */
  siteConfigUrl?: string;
  /**
   * The page view the page's first script sends without the app (shell analytics/document-page-view.ts):
   * its SPEC type, and the car and its ad content on a car page.
   */
  pageView?: {
    pageType: number | null;
    carSlug?: string;
    carName?: string;
    viewContent?: AdContent;
  } | null;
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** JSON inside a <script> element: `<` escaped so no value can close the element. */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const cssColour = (value: string) => (/^#[0-9a-f]{3,8}$/i.test(value) || /^[a-z]+$/i.test(value) ? value : 'inherit');
const cssLength = (value: string) => (/^\d+(\.\d+)?(px|rem|em)$/.test(value) ? value : '8px');

function brandingCss(site: PublicSiteConfig): string {
  const b = site.branding;
  return `:root{--dp-primary:${cssColour(b.primary)};--dp-primary-contrast:${cssColour(b.primaryContrast)};--dp-accent:${cssColour(b.accent)};--dp-surface:${cssColour(b.surface)};--dp-text:${cssColour(b.text)};--dp-radius:${cssLength(b.radius)}}`;
}

const meta = (attribute: 'property' | 'name', key: string, content: string | number) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(String(content))}">`;

function socialTags(social: SocialMeta, site: PublicSiteConfig): string[] {
  const tags = [
    meta('property', 'og:type', social.type),
    meta('property', 'og:site_name', site.name),
    meta('property', 'og:locale', ogLocale(site.locale)),
    meta('property', 'og:title', social.title),
    meta('property', 'og:description', social.description),
    meta('property', 'og:url', social.url),
  ];
  if (social.image) {
    tags.push(
      meta('property', 'og:image', social.image.url),
      ...(social.image.width && social.image.height
        ? [meta('property', 'og:image:width', social.image.width), meta('property', 'og:image:height', social.image.height)]
        : []),
      meta('property', 'og:image:alt', social.image.alt),
    );
  }
  if (social.price)
    tags.push(
      meta('property', 'product:price:amount', social.price.amount),
      meta('property', 'product:price:currency', social.price.currency),
    );
  tags.push(
    meta('name', 'twitter:card', social.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', social.title),
    meta('name', 'twitter:description', social.description),
  );
  if (social.image) tags.push(meta('name', 'twitter:image', social.image.url), meta('name', 'twitter:image:alt', social.image.alt));
  return tags;
}

/** The app's part of a document, known once the server render is done. */
export type DocumentApp = Pick<DocumentInput, 'appHtml' | 'appState' | 'appStateJson' | 'moduleFiles'>;

/**
 * The HTML document of every site page: config and route data inline, branding as custom
 * properties, and preloads for the shell, the route's remote and the hero image, so first
 * paint never waits on a chain of requests.
 */
export function renderDocument(input: DocumentInput): string {
  const parts = documentParts(input);
  return parts.head + parts.tail(input);
}

/** A document's tail as it is written: text, with the app's markup as the bytes it came in. */
export type DocumentChunks = (string | Uint8Array)[];

const utf8 = new TextDecoder();

/** The chunks as one text (a page to keep). */
export const chunksText = (chunks: DocumentChunks): string =>
  chunks.map((chunk) => (typeof chunk === 'string' ? chunk : utf8.decode(chunk))).join('');

/**
 * The tab's icon: an uploaded logo's thumbnail, or the drawn wordmark's tile as a PNG. Not the
 * wordmark's SVG: Chromium draws an SVG icon by making a document for it in the page's own
 * renderer, on the main thread while the page loads (bench:pages, issue 25).
 */
export function siteIcon(site: Pick<PublicSiteConfig, 'slug' | 'logo'>): string {
  if (isDrawnLogo(site)) return `<link rel="icon" href="${drawnIconPath(site.slug)}" type="image/png">`;
  const type = site.logo.thumb.endsWith('.svg') ? 'image/svg+xml' : site.logo.thumb.endsWith('.png') ? 'image/png' : null;
  return `<link rel="icon" href="${escapeHtml(site.logo.thumb)}"${type ? ` type="${type}"` : ''}>`;
}

/**
 * A document in two parts: `head` (everything up to the page's markup), which does not depend on
 * the server render and can be sent while it runs, and `tail`, the page's markup and data once
 * the render is done. With a first script (`shellAssets.firstPaint`) the head lists only it: it
 * loads the app after the first frame (shell/src/boot/app-start.ts).
 */
export function documentParts(input: Omit<DocumentInput, keyof DocumentApp>): {
  head: string;
  tail: (app: DocumentApp) => string;
  /** The tail as chunks: the app's markup stays the bytes a render thread sent (written as they are). */
  tailChunks: (app: DocumentApp) => DocumentChunks;
} {
  const { site } = input;
  const head: string[] = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(input.title)}</title>`,
    `<meta name="description" content="${escapeHtml(input.description)}">`,
    `<link rel="canonical" href="${escapeHtml(input.canonicalUrl)}">`,
    `<meta name="theme-color" content="${cssColour(site.branding.primary)}">`,
    siteIcon(site),
  ];
  if (input.robots) head.push(`<meta name="robots" content="${escapeHtml(input.robots)}">`);
  if (site.third_party.google_site_verification) {
    head.push(`<meta name="google-site-verification" content="${escapeHtml(site.third_party.google_site_verification)}">`);
  }
  if (input.social) head.push(...socialTags(input.social, site));
  for (const data of input.jsonLd ?? []) head.push(`<script type="application/ld+json">${scriptJson(data)}</script>`);
  head.push(`<style>${brandingCss(site)}</style>`);
  for (const css of input.shellAssets.css) {
    const text = input.shellAssets.inlineCss?.[css];
    head.push(
      text === undefined ? `<link rel="stylesheet" href="${escapeHtml(css)}">` : `<style data-href="${escapeHtml(css)}">${text}</style>`,
    );
  }
  if (input.heroImage) {
    const { path, sizes } = input.heroImage;
    head.push(
      `<link rel="preload" as="image" href="${escapeHtml(imageUrl(path, 828, imageQuality.standard))}" imagesrcset="${escapeHtml(imageSrcSet(path, deviceWidths))}" imagesizes="${escapeHtml(sizes)}" fetchpriority="high">`,
    );
  }
  for (const css of input.appStylesheets ?? []) {
    const inline = input.inlineStyles?.find((style) => style.href === css);
    head.push(inline ? `<style data-href="${escapeHtml(css)}">${inline.css}</style>` : `<link rel="stylesheet" href="${escapeHtml(css)}">`);
  }
  const remoteCss = input.remotePreloads.css.filter((css) => !input.appStylesheets?.includes(css));
  // The data the scripts read comes after the page's markup: the site config alone is tens of KB
  // (every location's hours and contacts), which the browser parsed before it could paint the page.
  // Only deferred scripts read it, and they run once the whole document is parsed.
  const data: string[] = [];
  if (input.routeData) data.push(`<script id="route-data" type="application/json">${scriptJson(input.routeData)}</script>`);
  if (input.pageView) data.push(`<script id="page-view" type="application/json">${scriptJson(input.pageView)}</script>`);
  const firstPaint = input.shellAssets.firstPaint;
  // A server-rendered page is drawn without the site config: the app fetches it (the same for every
  // page of the site, so cached after the first) as it starts, or ahead once the page has settled.
  // Inline, its ~8 KB compressed made most documents more than a first round trip carries. What the
  // page's analytics and the app's trigger read before that is written here (`site`, a few hundred bytes).
  // The first script's part (shell boot/app-start.ts), written after the render, which says what else the markup holds.
  let start: Record<string, unknown> | null = null;
  const fetchesConfig = Boolean(input.siteConfigUrl && firstPaint && input.shellAssets.js.includes(firstPaint));
  if (firstPaint && input.shellAssets.js.includes(firstPaint)) {
    // The page is readable as sent: the first script loads the app's code once it is on screen, so
    // that code does not take bandwidth from the styles and the main image.
    start = {
      ...(fetchesConfig ? { siteConfig: input.siteConfigUrl, site: documentSite(site) } : {}),
      scripts: input.shellAssets.js.filter((js) => js !== firstPaint),
      preloads: [...input.remotePreloads.js.map((href) => ({ href, as: 'script' })), ...remoteCss.map((href) => ({ href, as: 'style' }))],
    };
    head.push(`<script defer src="${escapeHtml(firstPaint)}"></script>`);
  } else {
    for (const js of input.shellAssets.js) head.push(`<link rel="preload" as="script" href="${escapeHtml(js)}">`);
    for (const js of input.remotePreloads.js) head.push(`<link rel="preload" as="script" href="${escapeHtml(js)}">`);
    for (const css of remoteCss) head.push(`<link rel="preload" as="style" href="${escapeHtml(css)}">`);
    for (const js of input.shellAssets.js) head.push(`<script defer src="${escapeHtml(js)}"></script>`);
  }

  const documentHead = `<!doctype html>
<html lang="${site.locale}">
<head>
${head.join('\n')}
</head>
<body>
`;
  const tailChunks = ({ appHtml, appState, appStateJson, moduleFiles }: DocumentApp): DocumentChunks => {
    const rendered = Boolean(appHtml?.length);
    const stateJson = rendered ? (appStateJson ?? (appState ? scriptJson(appState) : null)) : null;
    const state = stateJson ? [`<script id="app-state" type="application/json">${stateJson}</script>`] : [];
    const root: DocumentChunks = rendered
      ? ['<div id="root" data-ssr>', appHtml!, '</div>']
      : [
          `<div id="root"><noscript>${escapeHtml(site.name)} needs JavaScript to show its stock. Call us on ${escapeHtml(site.phone)}.</noscript></div>`,
        ];
    // Serialised only for a page that sends it: it is the largest part of the document's data.
    const config = rendered && fetchesConfig ? [] : [`<script id="site-config" type="application/json">${scriptJson(site)}</script>`];
    const prefetches = rendered ? (moduleFiles ?? []).filter((file) => !input.remotePreloads.js.includes(file.href)) : [];
    const appStart = start
      ? [`<script id="app-start" type="application/json">${scriptJson(prefetches.length ? { ...start, prefetches } : start)}</script>`]
      : [];
    return [
      ...root,
      `
${[...config, ...data, ...appStart, ...state].join('\n')}
</body>
</html>
`,
    ];
  };
  return { head: documentHead, tail: (app) => chunksText(tailChunks(app)), tailChunks };
}

/** The platform's own page at bare localhost: a link to every demo site. */
export function renderSiteIndex(sites: { slug: string; name: string; url: string }[]): string {
  const items = sites
    .map((site) => `<li><a href="${escapeHtml(site.url)}">${escapeHtml(site.name)}</a> <code>${escapeHtml(site.slug)}</code></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dealer platform: demo sites</title>
<style>body{font-family:system-ui,sans-serif;max-width:720px;margin:40px auto;padding:0 16px;line-height:1.6}</style></head>
<body><h1>Dealer platform</h1><p>Demo sites served by this platform:</p><ul>
${items}
</ul></body></html>
`;
}

export function renderUnknownSite(host: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site not found</title></head><body><h1>Site not found</h1><p>No dealer site is served at ${escapeHtml(host)}.</p></body></html>\n`;
}
