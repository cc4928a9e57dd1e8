import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { GaragePageProps } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { garagePath, garageSavedPath, searchPathFor, vehiclePath } from '@dealer/rules/routes';
import { isSold } from '@dealer/rules/tags';
import { Alert } from '@dealer/ui/alert';
import { Button } from '@dealer/ui/button';
import { Spinner } from '@dealer/ui/spinner';
import { VehicleImage } from '@dealer/ui/vehicle-image';
import { usePageTitle } from '@dealer/ui/page-title';
import { accountApi, setAccount, useAccount, type Account, type Garage } from './account';
import { readFavourites, useFavourites } from './favourites';
import FavouriteButton from './favourite-button';
import { SignIn } from './sign-in';
import './garage-page.css';

/**
 * The shopper's garage (SPEC §2 /my-garage, brand garages `{garage}/saved`): their saved cars, kept
 * in the browser and, once signed in, on the account on every device; their saved searches; and
 * their account (sign out, delete it and everything kept).
 */
export default function GaragePage({ tab }: GaragePageProps) {
  const site = useAppSelector(selectSite);
  const account = useAccount(site.garage_enabled);
  usePageTitle('My garage', site.name);
  const linkToken = useLinkToken();

  useEffect(() => {
    if (!linkToken || !site.garage_enabled) return;
    void accountApi
      .verify({ token: linkToken, favourites: readFavourites(site.slug).map((car) => car.id) })
      .then((answer) => answer.ok && setAccount(answer.data));
  }, [linkToken, site.garage_enabled, site.slug]);

  const tabs = (
    <nav className="garage-page__tabs" aria-label="Garage">
      <Link to={garagePath(site)} aria-current={tab === null ? 'page' : undefined}>
        My account
      </Link>
      <Link to={garageSavedPath(site)} aria-current={tab === 'saved-cars' ? 'page' : undefined}>
        Saved cars
      </Link>
    </nav>
  );
  return (
    <div className="dp-container garage-page" data-tab={tab ?? ''} data-remote-version={__REMOTE_VERSION__}>
      <h1>My garage</h1>
      {site.garage_enabled && tabs}
      {tab === 'saved-cars' || !site.garage_enabled ? (
        <SavedCars site={site} account={account} />
      ) : (
        <AccountTab site={site} account={account} />
      )}
    </div>
  );
}

/** A sign-in link opens the garage with `#sign_in=<token>` (kept out of server logs); read once and cleared. */
function useLinkToken(): string | null {
  const [token] = useState(() => {
    const match = /[#&]sign_in=([\w-]{10,200})/.exec(window.location.hash);
    if (match) history.replaceState(null, '', window.location.pathname + window.location.search);
    return match?.[1] ?? null;
  });
  return token;
}

function SavedCars({ site, account }: { site: PublicSiteConfig; account: Account | null }) {
  const favourites = useFavourites(site.slug);
  const [garage, setGarage] = useState<Garage | null>(null);
  const signedIn = Boolean(account?.user);
  const watchlist = account?.watchlist.join(',');
  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    void accountApi.garage().then((answer) => live && answer.ok && setGarage(answer.data));
    return () => {
      live = false;
    };
  }, [signedIn, watchlist]);

  // Signed in: the account's cars (with their current price and whether they sold); else this browser's.
  const cars =
    signedIn && garage
      ? garage.saved.flatMap((entry) =>
          entry.car
            ? [
                {
                  id: entry.car.id,
                  name: entry.car.name,
                  slug: entry.car.slug,
                  make: entry.car.make,
                  model: entry.car.model,
                  primary_image_url: entry.car.primary_image_url,
                  sold: isSold(entry.car),
                },
              ]
            : [],
        )
      : favourites.map((car) => ({ ...car, sold: false }));
  if (signedIn && !garage) return <Spinner category={site.vehicle_category} plain />;
  return (
    <section aria-label="Saved cars">
      <h2>Saved cars</h2>
      {!signedIn && site.garage_enabled && <p>Sign in on the My account tab to keep these on every device.</p>}
      {cars.length === 0 ? (
        <p>
          No saved cars yet. <Link to={searchPathFor(site)}>Browse our stock</Link> and tap Save on the cars you like.
        </p>
      ) : (
        <ul className="garage-page__list">
          {cars.map(({ sold, ...car }) => (
            <li key={car.id}>
              <Link to={vehiclePath(site, car.slug)}>
                <VehicleImage path={car.primary_image_url} alt={car.name} width={320} height={240} sizes="160px" widths={[320, 480]} />
                <span>{car.name}</span>
              </Link>
              {sold ? <span className="garage-page__sold">Sold</span> : <FavouriteButton car={car} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AccountTab({ site, account }: { site: PublicSiteConfig; account: Account | null }) {
  const [garage, setGarage] = useState<Garage | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const signedIn = Boolean(account?.user);
  useEffect(() => {
    if (!signedIn) return;
    void accountApi.garage().then((answer) => answer.ok && setGarage(answer.data));
  }, [signedIn]);

  if (!account) return <Spinner category={site.vehicle_category} plain />;
  if (!account.user) {
    return (
      <>
        {notice && <Alert tone="success">{notice}</Alert>}
        <SignIn site={site} />
      </>
    );
  }
  const signOut = async () => {
    await accountApi.signOut();
    setAccount({ user: null, watchlist: [] });
  };
  const deleteAccount = async () => {
    const answer = await accountApi.deleteAccount();
    if (answer.ok) {
      setNotice('Your account and everything it kept have been deleted.');
      setAccount({ user: null, watchlist: [] });
    }
  };
  return (
    <section aria-label="My account">
      <p>{`Signed in as ${account.user.email}.`}</p>
      {garage?.alerts_stopped ? (
        <Alert tone="info" title="Alert e-mails are off">
          <p>{`You asked ${site.name} to stop e-mailing offers and alerts. Your saved cars and searches are kept here.`}</p>
          <Button
            variant="secondary"
            onClick={() => void accountApi.resumeAlerts().then((answer) => answer.ok && setGarage({ ...garage, alerts_stopped: false }))}
          >
            E-mail me alerts again
          </Button>
        </Alert>
      ) : null}
      <h2>Saved searches</h2>
      {garage && garage.searches.length === 0 && <p>No saved searches yet.</p>}
      <ul className="garage-page__searches">
        {garage?.searches.map((search) => (
          <li key={search.id}>
            <Link to={search.path}>{search.name}</Link>{' '}
            <Button
              variant="link"
              onClick={() =>
                void accountApi
                  .deleteSearch(search.id)
                  .then(() => setGarage({ ...garage, searches: garage.searches.filter((item) => item.id !== search.id) }))
              }
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <div className="garage-page__account-actions">
        <Button variant="secondary" onClick={() => void signOut()}>
          Sign out
        </Button>
        {confirming ? (
          <Alert tone="destructive" title="Delete your account?">
            <p>Your saved cars, saved searches and sign-ins on this site are deleted for good.</p>
            <Button onClick={() => void deleteAccount()}>Yes, delete my account</Button>{' '}
            <Button variant="link" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </Alert>
        ) : (
          <Button variant="link" onClick={() => setConfirming(true)}>
            Delete my account
          </Button>
        )}
      </div>
    </section>
  );
}
