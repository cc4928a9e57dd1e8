import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { searchPathFor } from '@dealer/rules/routes';
import { navigationLinks } from './nav-links';
import { SiteLink } from '../content/blocks/site-link';
import { worksWithoutApp } from '../boot/site-menu';
import { KeptMarkup } from '@dealer/ui/kept-markup';
import { SiteBrand } from './site-brand';

export function SiteHeader() {
  return (
    // The same on every page of the site: the server renders it once per config and repeats it.
    // Markup only in the browser too: its links are anchors the shell routes, its Menu button the first script's.
    <KeptMarkup as="header" keep="site-header" markupOnly="site-header" className="site-header">
      <SiteHeaderContent />
    </KeptMarkup>
  );
}

/** What the header holds: its links are worked out only when it is rendered, not where the server repeats it. */
function SiteHeaderContent() {
  const site = useAppSelector(selectSite);
  const links = navigationLinks(site.navigation.header, site, searchPathFor(site));
  return (
    <>
      <div className="site-header__bar dp-container">
        <SiteLink to="/" className="site-header__brand">
          <SiteBrand site={site} />
        </SiteLink>
        <a className="site-header__phone" href={`tel:${site.phone.replace(/[^\d+]/g, '')}`}>
          {site.phone}
        </a>
        {/* Opened and closed by the document's first script (boot/site-menu.ts): at once, with or without the app. */}
        <button type="button" className="site-header__toggle" aria-expanded="false" aria-controls="site-nav" {...{ [worksWithoutApp]: '' }}>
          Menu
        </button>
      </div>
      <nav id="site-nav" className="site-nav" aria-label="Main">
        <ul className="site-nav__list dp-container">
          {links.map((link) =>
            link.children?.length ? (
              <li key={link.label} className="site-nav__item">
                <details className="site-nav__dropdown">
                  <summary>{link.label}</summary>
                  <ul>
                    {link.children.map((child) => (
                      <li key={child.label}>
                        <SiteLink to={child.to}>{child.label}</SiteLink>
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            ) : (
              <li key={link.label} className="site-nav__item">
                <SiteLink to={link.to}>{link.label}</SiteLink>
              </li>
            ),
          )}
        </ul>
      </nav>
    </>
  );
}
