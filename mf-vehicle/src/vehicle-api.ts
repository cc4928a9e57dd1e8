import { platformApi } from '@dealer/state/platform-api';
import type { Car } from '@dealer/contracts/car';

/** The car the server already put in the document for this route, if it is the one asked for. */
export function carFromDocument(slug: string): Car | undefined {
  const element = typeof document === 'undefined' ? null : document.getElementById('route-data');
  if (!element?.textContent) return undefined;
  const data = JSON.parse(element.textContent) as { car?: Car };
  return data.car?.slug === slug ? data.car : undefined;
}

export const vehicleApi = platformApi.injectEndpoints({
  endpoints: (build) => ({
    carBySlug: build.query<Car, string>({
      query: (slug) => `/cars/${encodeURIComponent(slug)}`,
      providesTags: (car) => (car ? [{ type: 'Car', id: car.id }] : []),
    }),
  }),
});

export const { useCarBySlugQuery } = vehicleApi;
