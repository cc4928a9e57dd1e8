import type { FavouriteButtonProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import { eventIds } from '@dealer/rules/enquiry';
import { Button } from '@dealer/ui/button';
import { accountApi, setAccount, useAccount } from './account';
import { readFavourites, toggleFavourite, useFavourites } from './favourites';

export default function FavouriteButton({ car }: FavouriteButtonProps) {
  const site = useAppSelector(selectSite);
  const account = useAccount(site.garage_enabled);
  const savedHere = useFavourites(site.slug).some((item) => item.id === car.id);
  const saved = savedHere || Boolean(account?.user && account.watchlist.includes(car.id));
  return (
    <Button
      variant="secondary"
      aria-pressed={saved}
      onClick={() => {
        const nowSaved = !saved;
        // Kept in the browser as before; a signed-in shopper's garage follows on every device.
        if (readFavourites(site.slug).some((item) => item.id === car.id) !== nowSaved) toggleFavourite(site.slug, car);
        if (account?.user) {
          void (nowSaved ? accountApi.save(car.id) : accountApi.unsave(car.id)).then((answer) => {
            if (answer.ok) setAccount({ ...account, watchlist: answer.data.watchlist });
          });
        }
        dispatchPlatformEvent('favourite:toggled', { car, saved: nowSaved });
        if (nowSaved) dispatchPlatformEvent('analytics:track', { eventId: eventIds.favouriteAdded, label: car.name });
      }}
    >
      {saved ? '♥ Saved' : '♡ Save'}
    </Button>
  );
}
