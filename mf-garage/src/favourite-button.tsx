import type { FavouriteButtonProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import { eventIds } from '@dealer/rules/enquiry';
import { Button } from '@dealer/ui/button';
import { toggleFavourite, useFavourites } from './favourites';

export default function FavouriteButton({ car }: FavouriteButtonProps) {
  const site = useAppSelector(selectSite);
  const saved = useFavourites(site.slug).some((item) => item.id === car.id);
  return (
    <Button
      variant="secondary"
      aria-pressed={saved}
      onClick={() => {
        const nowSaved = toggleFavourite(site.slug, car);
        dispatchPlatformEvent('favourite:toggled', { car, saved: nowSaved });
        if (nowSaved) dispatchPlatformEvent('analytics:track', { eventId: eventIds.favouriteAdded, label: car.name });
      }}
    >
      {saved ? '♥ Saved' : '♡ Save'}
    </Button>
  );
}
