import { Link } from 'react-router-dom';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { searchPathFor } from '@dealer/rules/routes';
import { usePageTitle } from '@dealer/ui/page-title';

export function NotFoundPage() {
  const site = useAppSelector(selectSite);
  usePageTitle('Page not found', site.name);
  return (
    <div className="dp-container content-page">
      <h1>Page not found</h1>
      <p>The page you were looking for is not here.</p>
      <p>
        <Link to="/">Home</Link> · <Link to={searchPathFor(site)}>Search our stock</Link>
      </p>
    </div>
  );
}
