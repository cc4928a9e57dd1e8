import type { CarCard, ContentBlock } from '@dealer/contracts/content';
import { formatDistance } from '@dealer/rules/locale';
import { formatPrice } from '@dealer/rules/price';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { ContentImage } from './image';

/**
 * Cars as plain cards (photo, name, price, odometer, location), each opening the car's page: featured
 * stock and an offer's cars. No Save button, so a page with them loads no remote.
 */
export function CarCards({ cars, detailPath }: { cars: CarCard[]; detailPath: string }) {
  const site = useAppSelector(selectSite);
  return (
    <ul className="content-cards content-cards--cars">
      {cars.map((car) => (
        <li key={car.id} className="content-card car-card" data-car-id={car.id}>
          <a href={`${detailPath}/${car.slug}`} className="content-card__link" data-prefetch="intent">
            {car.primary_image_url && (
              <ContentImage
                className="content-card__picture"
                image={{ src: car.primary_image_url, alt: car.name }}
                width={480}
                height={360}
                sizes="(min-width: 1200px) 270px, (min-width: 640px) 45vw, 100vw"
              />
            )}
            <h3>{car.name}</h3>
          </a>
          <p className="car-card__price">
            {formatPrice(car.price, { locale: site.locale })}
            {car.before_price !== null && car.before_price > car.price && <s>{formatPrice(car.before_price, { locale: site.locale })}</s>}
          </p>
          <p className="content-meta">{[formatDistance(car.km, site.locale), car.location_name].filter(Boolean).join(' · ')}</p>
        </li>
      ))}
    </ul>
  );
}

/** Cars from the site's stock, while the site shows stock on its home page. */
export function FeaturedStockBlock({
  block,
}: {
  block: Extract<ContentBlock, { type: 'featured_stock' }> & { cars: CarCard[]; detail_path: string };
}) {
  const site = useAppSelector(selectSite);
  if (!site.features.stock_on_homepage || block.cars.length === 0) return null;
  return (
    <>
      <h2>{block.title || 'Featured vehicles'}</h2>
      <CarCards cars={block.cars} detailPath={block.detail_path} />
    </>
  );
}
