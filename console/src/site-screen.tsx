import { useEffect, useState, type ComponentType } from 'react';
import { dealerScreens, type LeadsInboxProps } from '@dealer/contracts/remote-modules';
import { consoleApi, type ConsoleSite } from './console-api';
import { loadDealerScreen } from './federation';

type Loaded = { Inbox: ComponentType<LeadsInboxProps> } | { error: string } | null;

/** A site's leads inbox: mf-leads' dealer screen, at the version the site runs, with what the user's role allows. */
export function LeadsScreen({ site }: { site: ConsoleSite }) {
  const [loaded, setLoaded] = useState<Loaded>(null);
  useEffect(() => {
    let current = true;
    consoleApi
      .remotes(site.slug)
      .then(({ remotes }) => loadDealerScreen<{ default: ComponentType<LeadsInboxProps> }>(dealerScreens.LeadsInbox, remotes))
      .then(
        (module) => current && setLoaded({ Inbox: module.default }),
        (caught: unknown) => current && setLoaded({ error: caught instanceof Error ? caught.message : String(caught) }),
      );
    return () => {
      current = false;
    };
  }, [site.slug]);

  if (loaded === null) return <p role="status">Loading the leads inbox…</p>;
  if ('error' in loaded)
    return (
      <div className="dp-alert dp-alert--destructive" role="alert">
        The leads inbox could not be loaded: {loaded.error}
      </div>
    );
  return (
    <loaded.Inbox
      apiBase={`/api/console/sites/${encodeURIComponent(site.slug)}`}
      canUpdate={site.actions.includes('leads.update')}
      canExport={site.actions.includes('leads.export')}
    />
  );
}
