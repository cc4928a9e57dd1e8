// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { testSite } from '@dealer/contracts/testing/test-site';
import { createPlatformStore } from '@dealer/state/store';
import VehicleDetailPage from './vehicle-detail-page';

const site = testSite();
const nowSeconds = () => Math.floor(Date.now() / 1000);

const hilux = (over: Partial<Car> = {}): Car => ({
  id: 7,
  slug: '2024-toyota-hilux-sr5',
  name: '2024 Toyota HiLux SR5',
  make: 'Toyota',
  model: 'HiLux',
  badge: 'SR5',
  series: null,
  year: 2024,
  km: 12000,
  price: 52990,
  before_price: null,
  subscription_price: null,
  car_type: 'used',
  category: 'car',
  status: 'in_stock',
  stocknum: 'T1234',
  vin: 'MR0HA3CD100123456',
  tag: null,
  certified: false,
  reserved: false,
  sold: false,
  reservable: true,
  preorder: false,
  created_at: '2023-11-01',
  created_at_timestamp: nowSeconds() - 30 * 86_400,
  sold_date_timestamp: null,
  custom_rank: 0,
  show_on_dealer_website: true,
  photos_count: 1,
  dealership_slug: 'metro-toyota',
  dealership_id: 7,
  location_id: site.locations[0]!.id,
  location_name: 'Parramatta',
  location: { name: 'Metro Toyota Parramatta', distribution_locations: [] },
  city: 'Parramatta',
  state: 'NSW',
  simple_body: 'Ute',
  simple_drive: '4x4',
  simple_fuel: 'Diesel',
  simple_transmission: 'Automatic',
  colour: 'White',
  seats: 5,
  categories: [],
  filtered_features: [],
  primary_image_url: '/img/hilux.jpg',
  images: ['/img/hilux.jpg'],
  thumbnails: [],
  payment_processors: [],
  has_checkout_payment_processor: false,
  autograb_data: null,
  carsales_seller_identifier: null,
  description: 'One owner.',
  ...over,
});

/** The car page as the server hands it over: the car in the document's route data. */
function bannerOf(car: Car) {
  const routeData = document.createElement('script');
  routeData.id = 'route-data';
  routeData.type = 'application/json';
  routeData.textContent = JSON.stringify({ car });
  document.head.append(routeData);
  const { container } = render(
    <Provider store={createPlatformStore(site)}>
      <MemoryRouter>
        <VehicleDetailPage slug={car.slug} />
      </MemoryRouter>
    </Provider>,
  );
  return container.querySelector('.vehicle-tag');
}

describe('the car page’s banner', () => {
  beforeEach(() => {
    vi.stubGlobal('__REMOTE_VERSION__', '1.0.0-test');
    // Similar cars load when their strip nears the screen, which never happens here.
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
  });
  afterEach(() => {
    cleanup();
    document.getElementById('route-data')?.remove();
    vi.unstubAllGlobals();
  });

  it('says On hold while a shopper holds the car to pay its deposit', () => {
    const banner = bannerOf(hilux({ on_hold_until_timestamp: nowSeconds() + 600 }));
    expect(banner?.textContent).toBe('On hold');
    expect(banner?.className).toContain('vehicle-tag--on-hold');
  });

  it('shows the car available again once the hold has run out, and Reserved once the deposit is paid', () => {
    expect(bannerOf(hilux({ on_hold_until_timestamp: nowSeconds() - 1 }))).toBeNull();
    cleanup();
    document.getElementById('route-data')?.remove();
    expect(bannerOf(hilux({ reserved: true, on_hold_until_timestamp: nowSeconds() + 600 }))?.textContent).toBe('Reserved');
  });
});
