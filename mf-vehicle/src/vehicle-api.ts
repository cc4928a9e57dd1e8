import { platformApi } from '@dealer/state/platform-api';
import type { RootState } from '@dealer/state/root-reducer';
import type { PrefetchContext } from '@dealer/state/server-render';
import type { VehicleDetailPageProps } from '@dealer/contracts/remote-modules';
import type { Car } from '@dealer/contracts/car';
import { carSlugPattern } from '@dealer/contracts/car-values';

/** The car the server already put in the document for this route, if it is the one asked for. */
export function carFromDocument(slug: string): Car | undefined {
  const element = typeof document === 'undefined' ? null : document.getElementById('route-data');
  if (!element?.textContent) return undefined;
  const data = JSON.parse(element.textContent) as { car?: Car };
  return data.car?.slug === slug ? data.car : undefined;
}

/** SPEC §7: retried twice on a non-ok reply; a 404 is an answer, not a failure. */
const attempts = 3;

export const vehicleApi = platformApi.injectEndpoints({
  endpoints: (build) => ({
    carBySlug: build.query<Car, string>({
      async queryFn(slug, api, _options, baseQuery) {
        // SPEC §5: any other character means no such car, without asking.
        if (!carSlugPattern.test(slug)) return { error: { status: 404, data: { message: 'Not found' } } };
        const site = (api.getState() as RootState).site.config!;
        let last: unknown = null;
        for (let attempt = 0; attempt < attempts; attempt++) {
          const result = await baseQuery(`/websites/${site.id}/cars/${encodeURIComponent(slug)}.json`);
          if (!result.error) return { data: result.data as Car };
          last = result.error;
          if (result.error.status === 404) return { error: result.error };
        }
        // SPEC §8: a failed car fetch is logged with this text.
        console.error('Unable to fetch data', last);
        return { error: { status: 'FETCH_ERROR', error: 'Unable to fetch data' } };
      },
      providesTags: (car) => (car ? [{ type: 'Car', id: car.id }] : []),
    }),
  }),
});

export const { useCarBySlugQuery } = vehicleApi;

/** The car page's car on the server (its server build), into the store the browser hydrates with. */
export async function prefetchVehiclePage({ slug }: VehicleDetailPageProps, { store }: PrefetchContext) {
  const result = await store.dispatch(vehicleApi.endpoints.carBySlug.initiate(slug));
  if (result.error) throw new Error(`the car could not be fetched: ${JSON.stringify(result.error)}`);
}
