import type { Car } from '@dealer/contracts/car';
import type { SiteLocale } from '@dealer/contracts/site';
import { formatDistance, t } from '@dealer/rules/locale';

/** The details a shopper compares: SPEC §3 car fields in plain words. */
export function VehicleSpecs({ car, locale }: { car: Car; locale: SiteLocale }) {
  const rows: [string, string | null][] = [
    ['Make', car.make],
    ['Model', car.model],
    ['Badge', car.badge],
    ['Series', car.series],
    ['Year', String(car.year)],
    ['Odometer', formatDistance(car.km, locale)],
    ['Body', car.simple_body],
    ['Fuel', t(locale, car.simple_fuel)],
    ['Transmission', car.simple_transmission],
    ['Drive', car.simple_drive],
    [t(locale, 'Colour'), car.colour],
    ['Seats', String(car.seats)],
    ['Stock number', car.stocknum],
    ['VIN', car.vin],
  ];
  return (
    <section aria-labelledby="vehicle-specs-title">
      <h2 id="vehicle-specs-title">Details</h2>
      <dl className="vehicle-specs">
        {rows
          .filter((row): row is [string, string] => Boolean(row[1]))
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      {car.filtered_features.length > 0 && (
        <>
          <h3>Features</h3>
          <ul className="vehicle-features">
            {car.filtered_features.map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
