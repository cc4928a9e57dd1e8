import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SmartLink } from '@dealer/ui/smart-link';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { searchPathFor } from '@dealer/rules/routes';
import { navigationLinks } from './nav-links';

export function SiteHeader() {
  const site = useAppSelector(selectSite);
  const [open, setOpen] = useState(false);
  const links = navigationLinks(site.navigation.header, site, searchPathFor(site));
  const close = () => setOpen(false);
  return (
    <header className="site-header">
      <div className="site-header__bar dp-container">
        <Link to="/" className="site-header__brand" onClick={close}>
          <img src={site.logo.url} alt={site.name} width={160} height={40} />
        </Link>
        <a className="site-header__phone" href={`tel:${site.phone.replace(/[^\d+]/g, '')}`}>
          {site.phone}
        </a>
        <button type="button" className="site-header__toggle" aria-expanded={open} aria-controls="site-nav" onClick={() => setOpen(!open)}>
          Menu
        </button>
      </div>
      <nav id="site-nav" className={`site-nav${open ? ' site-nav--open' : ''}`} aria-label="Main">
        <ul className="site-nav__list dp-container">
          {links.map((link) =>
            link.children?.length ? (
              <li key={link.label} className="site-nav__item">
                <details className="site-nav__dropdown">
                  <summary>{link.label}</summary>
                  <ul>
                    {link.children.map((child) => (
                      <li key={child.label}>
                        <SmartLink
                          to={child.to}
                          onClick={close}
                          blogToNews={site.features.blog_to_news === true}
                          usesPagesPath={site.features.uses_pages_path === true}
                        >
                          {child.label}
                        </SmartLink>
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            ) : (
              <li key={link.label} className="site-nav__item">
                <SmartLink
                  to={link.to}
                  onClick={close}
                  blogToNews={site.features.blog_to_news === true}
                  usesPagesPath={site.features.uses_pages_path === true}
                >
                  {link.label}
                </SmartLink>
              </li>
            ),
          )}
        </ul>
      </nav>
    </header>
  );
}
