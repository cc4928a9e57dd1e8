import { mountStandalone } from '@dealer/state/standalone';
import SearchPage from './search-page';

mountStandalone((site) => <SearchPage searchSlug={site.default_search_path.replace(/^\/search\//, '')} />);
