import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Button } from '@dealer/ui/button';
import { consoleApi, type Me } from './console-api';
import { SignInPage } from './sign-in-page';
import { ChatsScreen, LeadsScreen, ReservationsScreen, StockScreen } from './site-screen';
import { RemotesScreen } from './remotes-screen';
import { UsersScreen } from './users-screen';
import { SettingsScreen } from './settings-screen';
import { DashboardScreen } from './dashboard-screen';
import { AuditScreen } from './audit-screen';
import { SessionsScreen } from './sessions-screen';
import { NewSiteScreen } from './new-site-screen';

// The content screen brings the content contract and, with its first text field, the rich-text editor:
// loaded when it opens, so the console's first load does not carry them.
const ContentScreen = lazy(() =>
  import(/* webpackChunkName: "content-screen" */ './content-screen').then((module) => ({ default: module.ContentScreen })),
);

/** `/sites/:slug/:screen` → the slug and the screen. */
const siteInPath = () => /^\/sites\/([a-z0-9-]+)/.exec(window.location.pathname)?.[1] ?? null;
const screens = [
  { screen: 'dashboard', label: 'Dashboard', action: 'dashboard.read' },
  { screen: 'leads', label: 'Leads', action: 'leads.read' },
  { screen: 'chats', label: 'Chats', action: 'chats.read' },
  { screen: 'reservations', label: 'Reservations', action: 'reservations.read' },
  { screen: 'stock', label: 'Stock', action: 'stock.read' },
  { screen: 'content', label: 'Content', action: 'content.read' },
  { screen: 'settings', label: 'Settings', action: 'settings.read' },
  { screen: 'remotes', label: 'Remotes', action: 'remotes.read' },
  { screen: 'users', label: 'Users', action: 'users.read' },
  { screen: 'audit', label: 'Audit log', action: 'audit.read' },
] as const;
type Screen = (typeof screens)[number]['screen'];
const screenInPath = (): Screen =>
  screens.find((one) => new RegExp(`^/sites/[a-z0-9-]+/${one.screen}`).test(window.location.pathname))?.screen ?? 'leads';

/**
 * The console: signed out, the sign-in page; signed in, the sites the user may open (their roles
 * decide) and the chosen site's screens. Each screen of a domain comes from the remote that owns it.
 */
export function ConsoleApp() {
  const [me, setMe] = useState<Me | null | 'loading'>('loading');
  const [slug, setSlug] = useState<string | null>(siteInPath);
  const [screen, setScreen] = useState<Screen>(screenInPath);
  const [sessionsOpen, setSessionsOpen] = useState(() => window.location.pathname === '/sessions');
  const [newSiteOpen, setNewSiteOpen] = useState(() => window.location.pathname === '/new-site');

  useEffect(() => {
    consoleApi.me().then(setMe, () => setMe(null));
    const onPop = () => {
      setSlug(siteInPath());
      setScreen(screenInPath());
      setSessionsOpen(window.location.pathname === '/sessions');
      setNewSiteOpen(window.location.pathname === '/new-site');
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const signedIn = useCallback((who: Me) => setMe(who), []);

  if (me === 'loading') return <p role="status">Loading…</p>;
  if (me === null) return <SignInPage onSignedIn={signedIn} />;

  const open = (to: string | null, view: Screen = 'leads') => {
    history.pushState(null, '', to ? `/sites/${to}/${view}` : '/');
    setSessionsOpen(false);
    setNewSiteOpen(false);
    setSlug(to);
    setScreen(view);
  };
  const site = me.sites.find((one) => one.slug === slug) ?? (me.sites.length === 1 ? me.sites[0]! : null);
  const operator = me.user.roles.some((role) => role.role === 'operator');
  // A new site: the user's sites again (it is among them now), then its settings to finish.
  const opened = (made: string) =>
    void consoleApi.me().then((who) => {
      setMe(who);
      open(made, 'settings');
    });
  return (
    <div className="dc-app">
      <header className="dc-app__header">
        <a
          href="/"
          className="dc-app__brand"
          onClick={(event) => {
            event.preventDefault();
            open(null);
          }}
        >
          Dealer console
        </a>
        {me.sites.length > 1 ? (
          <label className="dc-app__site">
            <span>Site</span>
            <select value={site?.slug ?? ''} onChange={(event) => open(event.target.value || null)}>
              <option value="">Choose a site</option>
              {me.sites.map((one) => (
                <option key={one.slug} value={one.slug}>
                  {one.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <span className="dc-app__user">{me.user.email}</span>
        <a
          href="/sessions"
          className="dc-app__sessions"
          onClick={(event) => {
            event.preventDefault();
            history.pushState(null, '', '/sessions');
            setSlug(null);
            setSessionsOpen(true);
          }}
        >
          Sessions
        </a>
        <Button
          variant="secondary"
          onClick={() => {
            void consoleApi.signOut().then(() => setMe(null));
          }}
        >
          Sign out
        </Button>
      </header>
      <main className="dc-app__main">
        {sessionsOpen ? (
          <SessionsScreen />
        ) : newSiteOpen && operator ? (
          <NewSiteScreen onOpened={opened} />
        ) : site ? (
          <>
            <nav className="dc-tabs" aria-label={`${site.name} screens`}>
              {screens
                .filter((one) => site.actions.includes(one.action))
                .map((one) => (
                  <a
                    key={one.screen}
                    href={`/sites/${site.slug}/${one.screen}`}
                    aria-current={screen === one.screen ? 'page' : undefined}
                    onClick={(event) => {
                      event.preventDefault();
                      open(site.slug, one.screen);
                    }}
                  >
                    {one.label}
                  </a>
                ))}
            </nav>
            {screen === 'audit' && site.actions.includes('audit.read') ? (
              <AuditScreen key={site.slug} site={site} />
            ) : screen === 'dashboard' && site.actions.includes('dashboard.read') ? (
              <DashboardScreen key={site.slug} site={site} />
            ) : screen === 'settings' && site.actions.includes('settings.read') ? (
              <SettingsScreen key={site.slug} site={site} />
            ) : screen === 'chats' && site.actions.includes('chats.read') ? (
              <ChatsScreen key={site.slug} site={site} />
            ) : screen === 'stock' && site.actions.includes('stock.read') ? (
              <StockScreen key={site.slug} site={site} />
            ) : screen === 'content' && site.actions.includes('content.read') ? (
              <Suspense fallback={<p role="status">Loading the content…</p>}>
                <ContentScreen key={site.slug} site={site} />
              </Suspense>
            ) : screen === 'reservations' && site.actions.includes('reservations.read') ? (
              <ReservationsScreen key={site.slug} site={site} />
            ) : screen === 'users' && site.actions.includes('users.read') ? (
              <UsersScreen key={site.slug} site={site} me={me.user.email} />
            ) : screen === 'remotes' && site.actions.includes('remotes.read') ? (
              <RemotesScreen key={site.slug} site={site} />
            ) : site.actions.includes('leads.read') ? (
              <LeadsScreen key={site.slug} site={site} />
            ) : (
              <p>Your role shows nothing on {site.name} yet.</p>
            )}
          </>
        ) : me.sites.length === 0 ? (
          <p>Your account has no site yet. Ask your site admin to add you.</p>
        ) : (
          <section aria-labelledby="dc-sites-title">
            <h1 id="dc-sites-title">Your sites</h1>
            {operator ? (
              <p>
                <a
                  href="/new-site"
                  className="dp-button dp-button--secondary"
                  onClick={(event) => {
                    event.preventDefault();
                    history.pushState(null, '', '/new-site');
                    setSlug(null);
                    setNewSiteOpen(true);
                  }}
                >
                  Open a new site
                </a>
              </p>
            ) : null}
            <ul className="dc-sites">
              {me.sites.map((one) => (
                <li key={one.slug}>
                  <a
                    href={`/sites/${one.slug}/leads`}
                    onClick={(event) => {
                      event.preventDefault();
                      open(one.slug);
                    }}
                  >
                    {one.name}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        )}
      </main>
    </div>
  );
}
