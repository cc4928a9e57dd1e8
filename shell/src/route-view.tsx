import { Navigate } from 'react-router-dom';
import type { RouteMatch } from '@dealer/rules/routes';
import { routeOwner } from '@dealer/rules/route-modules';
import { RemoteModule } from './federation/remote-module';
import { isModuleEnabled } from './federation/remote-runtime';
import { HomePage } from './pages/home-page';
import { ContentPageView } from './content/content-components';
import { NotFoundPage } from './pages/not-found-page';
import { UnsubscribePage } from './pages/unsubscribe-page';

export function RouteView({ match }: { match: RouteMatch }) {
  const owned = routeOwner(match);
  if (owned) {
    // A switched-off remote has no routes: its pages are simply not there.
    if (!isModuleEnabled(owned.module)) return <NotFoundPage />;
    return <RemoteModule key={JSON.stringify(match)} module={owned.module} props={owned.props} />;
  }
  switch (match.kind) {
    case 'home':
      return <HomePage />;
    // The dealer's pages: their own chunk, loaded when one is shown (content-components.tsx).
    case 'content':
    case 'blog':
    case 'post':
    case 'offer':
      return <ContentPageView match={match} />;
    case 'unsubscribe':
      return <UnsubscribePage />;
    case 'redirect':
      return <Navigate to={match.to} replace />;
    default:
      return <NotFoundPage />;
  }
}
