import { useEffect, useState, type ComponentType } from 'react';
import { dealerScreens, type DealerScreen, type DealerScreenProps } from '@dealer/contracts/remote-modules';
import { consoleApi, type ConsoleSite } from './console-api';
import { loadDealerScreen } from './federation';

type Loaded<S extends DealerScreen> = { Screen: ComponentType<DealerScreenProps[S]> } | { error: string } | null;

/** A dealer screen of a domain, from the remote that owns it, at the version the site runs. */
function RemoteScreen<S extends DealerScreen>({
  site,
  screen,
  props,
  what,
}: {
  site: ConsoleSite;
  screen: S;
  props: DealerScreenProps[S];
  what: string;
}) {
  const [loaded, setLoaded] = useState<Loaded<S>>(null);
  useEffect(() => {
    let current = true;
    consoleApi
      .remotes(site.slug)
      .then(({ remotes }) => loadDealerScreen<{ default: ComponentType<DealerScreenProps[S]> }>(screen, remotes))
      .then(
        (module) => current && setLoaded({ Screen: module.default }),
        (caught: unknown) => current && setLoaded({ error: caught instanceof Error ? caught.message : String(caught) }),
      );
    return () => {
      current = false;
    };
  }, [site.slug, screen]);

  if (loaded === null) return <p role="status">Loading the {what}…</p>;
  if ('error' in loaded)
    return (
      <div className="dp-alert dp-alert--destructive" role="alert">
        The {what} could not be loaded: {loaded.error}
      </div>
    );
  return <loaded.Screen {...props} />;
}

const apiBase = (site: ConsoleSite) => `/api/console/sites/${encodeURIComponent(site.slug)}`;

export const LeadsScreen = ({ site }: { site: ConsoleSite }) => (
  <RemoteScreen
    site={site}
    screen={dealerScreens.LeadsInbox}
    what="leads inbox"
    props={{ apiBase: apiBase(site), canUpdate: site.actions.includes('leads.update'), canExport: site.actions.includes('leads.export') }}
  />
);

export const ChatsScreen = ({ site }: { site: ConsoleSite }) => (
  <RemoteScreen
    site={site}
    screen={dealerScreens.ChatInbox}
    what="chat inbox"
    props={{ apiBase: apiBase(site), canReply: site.actions.includes('chats.reply') }}
  />
);

export const ReservationsScreen = ({ site }: { site: ConsoleSite }) => (
  <RemoteScreen
    site={site}
    screen={dealerScreens.ReservationsList}
    what="reservations"
    props={{ apiBase: apiBase(site), canRelease: site.actions.includes('reservations.release') }}
  />
);

export const StockScreen = ({ site }: { site: ConsoleSite }) => (
  <RemoteScreen
    site={site}
    screen={dealerScreens.StockList}
    what="stock"
    props={{ apiBase: apiBase(site), canWrite: site.actions.includes('stock.write') }}
  />
);
