import type { DocumentSite, PublicSiteConfig } from '@dealer/contracts/site';
import type { AppStart } from './app-start';

/** Tries before a server-rendered page gives up starting its code (the page stays readable, its links work). */
const attempts = 3;

/**
 * What the page's analytics and the app's trigger read of the site before the app starts: the part
 * the server wrote into `app-start` (`site`), or the whole config when the document carries it, or
 * null (a document without either: read the config itself).
 */
export function readDocumentSite(doc: Document = document): DocumentSite | null {
  const start = JSON.parse(doc.getElementById('app-start')?.textContent ?? 'null') as AppStart | null;
  if (start?.site) return start.site;
  const inline = doc.getElementById('site-config')?.textContent;
  return inline ? (JSON.parse(inline) as PublicSiteConfig) : null;
}

/**
 * The site's config: from the document when it carries it (a page the browser renders, whose first
 * frame draws the header from it), otherwise from the address the server named in `app-start`
 * (`/api/site?v=…`), fetched as the app starts or once the page has settled; the browser then keeps it.
 */
export async function readSiteConfig(doc: Document = document): Promise<PublicSiteConfig> {
  const inline = doc.getElementById('site-config')?.textContent;
  if (inline) return JSON.parse(inline) as PublicSiteConfig;
  const start = JSON.parse(doc.getElementById('app-start')?.textContent ?? 'null') as AppStart | null;
  if (!start?.siteConfig) throw new Error('This page names no site config');
  let failure: unknown = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const response = await fetch(start.siteConfig, { credentials: 'same-origin' });
      if (response.ok) return (await response.json()) as PublicSiteConfig;
      failure = new Error(`The site config answered ${response.status}`);
      if (response.status < 500) break;
    } catch (error) {
      failure = error;
    }
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
  throw failure instanceof Error ? failure : new Error(String(failure));
}
