// Part of the document's first script (first-script.ts): no shared modules, no React.

/** Marks a control that works without the app: the keeper (before-hydration.ts) does not replay it to React. */
export const worksWithoutApp = 'data-works-without-app';

/**
 * The header's Menu button on a phone: it opens and closes the site's menu from the first script,
 * so it answers the first tap at once, before (and without) the app. Following a link in the header
 * closes it (the app shows the next page in place; without the app a new document comes anyway).
 */
export function runSiteMenu(doc: Document = document) {
  doc.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const toggle = target?.closest?.('.site-header__toggle');
    const nav = doc.getElementById('site-nav');
    if (!nav) return;
    const setOpen = (open: boolean) => {
      nav.classList.toggle('site-nav--open', open);
      doc.querySelector('.site-header__toggle')?.setAttribute('aria-expanded', String(open));
    };
    if (toggle) setOpen(!nav.classList.contains('site-nav--open'));
    else if (target?.closest?.('a') && target.closest('.site-header')) setOpen(false);
  });
}
