import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { searchPathFor } from '@dealer/rules/routes';
import { navigationLinks } from './nav-links';
import { SiteLink } from '../content/blocks/site-link';
import { KeptMarkup } from '@dealer/ui/kept-markup';

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    // The same on every page of the site in a year: the server renders it once per config and repeats it.
    // Markup only in the browser too: links the shell routes and text.
    <KeptMarkup as="footer" keep={`site-footer ${year}`} markupOnly="site-footer" className="site-footer">
      <SiteFooterContent year={year} />
    </KeptMarkup>
  );
}

/** What the footer holds: its links are worked out only when it is rendered, not where the server repeats it. */
function SiteFooterContent({ year }: { year: number }) {
  const site = useAppSelector(selectSite);
  const links = navigationLinks(site.navigation.footer, site, searchPathFor(site));
  const primary = site.locations.find((location) => location.primary) ?? site.locations[0];
  return (
    <div className="dp-container site-footer__inner">
      <nav aria-label="Footer">
        <ul className="site-footer__links">
          {links.map((link) => (
            <li key={`${link.label}-${String(link.to)}`}>
              <SiteLink to={link.to}>{link.label}</SiteLink>
            </li>
          ))}
        </ul>
      </nav>
      {primary && (
        <address className="site-footer__address">
          <strong>{site.name}</strong>
          <br />
          {primary.address.full}
          {primary.dealer_license_number && (
            <>
              <br />
              {`Dealer licence ${primary.dealer_license_number}`}
            </>
          )}
        </address>
      )}
      <p className="site-footer__legal">{`© ${year} ${site.name}`}</p>
    </div>
  );
}
