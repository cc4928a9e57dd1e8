import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { searchPathFor } from '@dealer/rules/routes';
import { PageBlocksView } from '../content/content-components';
import { PageLoading } from '../content/page-loading';
import { useRoutePage } from '../content/route-data';

/**
 * The home page: the sections the dealer wrote (issue 24 part 4), in their order, then the shop's
 * tiles. A site whose dealer has written none shows the site's own opening instead.
 */
export function HomePage() {
  const site = useAppSelector(selectSite);
  const location = useLocation();
  const state = useRoutePage(`${location.pathname}${location.search}`);
  const searchPath = searchPathFor(site);
  // The site's own search title, as the server wrote it for this page (not just its name).
  useEffect(() => {
    document.title = site.seo.title || site.name;
  }, [site.seo.title, site.name]);
  if (state.status === 'loading') return <PageLoading />;
  const blocks = state.status === 'ready' && state.page ? state.page.blocks : null;
  const types = Object.entries(site.stock.car_types).filter(([, count]) => count > 0);
  return (
    <div className="home-page">
      {blocks ? (
        <>
          {/* An opening hero's headline is the page's title; otherwise the site's name is. */}
          {blocks[0]?.type !== 'hero' && <h1 className="dp-container home-title">{site.name}</h1>}
          <PageBlocksView blocks={blocks} home />
        </>
      ) : (
        <section className="home-hero">
          <div className="dp-container">
            <h1>{site.name}</h1>
            <p>{site.seo.description}</p>
            <Link className="dp-button dp-button--primary home-hero__cta" to={searchPath}>
              {`Browse ${site.stock.count} vehicles`}
            </Link>
          </div>
        </section>
      )}
      <section className="dp-container home-section">
        <h2>Shop by type</h2>
        <ul className="home-tiles">
          {types.map(([type, count]) => (
            <li key={type}>
              <Link to={`${searchPath}?car_type=${type}`}>{`${type[0]!.toUpperCase()}${type.slice(1)} (${count})`}</Link>
            </li>
          ))}
          {site.search_categories.map((category) => (
            <li key={category.path}>
              <Link to={category.path}>{category.label}</Link>
            </li>
          ))}
        </ul>
      </section>
      {site.stock.makes.length > 0 && (
        <section className="dp-container home-section">
          <h2>Shop by make</h2>
          <ul className="home-tiles">
            {site.stock.makes.map((make) => (
              <li key={make}>
                <Link to={`${searchPath}?make=${encodeURIComponent(make)}`}>{make}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
