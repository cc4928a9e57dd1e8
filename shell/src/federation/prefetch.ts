import { useEffect } from 'react';
import { resolveRoute, type RouteSite } from '@dealer/rules/routes';
import { routeOwner } from '@dealer/rules/route-modules';
import { isModuleEnabled, loadRemoteModule } from './remote-runtime';

/**
 * Hovering or focusing an internal link warms the remote that owns its route, except on the
 * paths SPEC §2 says never to prefetch (SmartLink marks those data-prefetch="off").
 */
export function usePrefetchOnHover(site: RouteSite) {
  useEffect(() => {
    const warmed = new Set<string>();
    const onIntent = (event: Event) => {
      const anchor = (event.target as Element | null)?.closest?.('a[data-prefetch="intent"]');
      if (!(anchor instanceof HTMLAnchorElement) || anchor.origin !== location.origin) return;
      const owned = routeOwner(resolveRoute(site, anchor.pathname, new URLSearchParams(anchor.search)));
      if (!owned || warmed.has(owned.module) || !isModuleEnabled(owned.module)) return;
      warmed.add(owned.module);
      loadRemoteModule(owned.module).catch(() => warmed.delete(owned.module));
    };
    document.addEventListener('pointerover', onIntent, { passive: true });
    document.addEventListener('focusin', onIntent);
    return () => {
      document.removeEventListener('pointerover', onIntent);
      document.removeEventListener('focusin', onIntent);
    };
  }, [site]);
}
