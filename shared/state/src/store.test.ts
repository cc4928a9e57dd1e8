import { describe, expect, it } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { hydratePlatformApi, whenPlatformApiInjected } from '@dealer/state/root-reducer';
import { setPlatformFetch } from '@dealer/state/platform-fetch';
import { createPlatformStore } from '@dealer/state/store';

// One story: the module state under test (has the platform API loaded yet?) is this file's own.
describe('a store created before the platform API loads (the shell’s home page, then a remote)', () => {
  it('holds no API state and no RTK Query until a remote loads it; then takes the server’s answers and runs queries through the API’s middleware', async () => {
    const store = createPlatformStore(testSite(), { apiBase: 'https://dealer.example/api' });
    expect(store.getState().site.config?.name).toBe(testSite().name);
    expect(store.getState().platformApi).toBeUndefined();

    // The server rendered car 7 with its first data; the shell keeps that for when the API loads.
    const serverState = {
      platformApi: {
        queries: {
          'car(7)': {
            status: 'fulfilled',
            endpointName: 'car',
            requestId: 'server',
            originalArgs: 7,
            startedTimeStamp: 1,
            fulfilledTimeStamp: 2,
            data: { id: 7, title: 'From the server' },
          },
        },
        mutations: {},
        provided: { tags: {}, keys: {} },
        subscriptions: {},
        config: {
          online: true,
          focused: true,
          middlewareRegistered: false,
          refetchOnFocus: false,
          refetchOnReconnect: false,
          refetchOnMountOrArgChange: false,
          keepUnusedDataFor: 60,
          reducerPath: 'platformApi',
          invalidationBehavior: 'delayed',
        },
      },
    };
    whenPlatformApiInjected(() => store.dispatch(hydratePlatformApi(serverState)));
    expect(store.getState().platformApi).toBeUndefined();

    const calls: string[] = [];
    setPlatformFetch(async (input) => {
      calls.push(String(input instanceof Request ? input.url : input));
      return new Response(JSON.stringify({ id: 8, title: 'Fetched' }), { headers: { 'Content-Type': 'application/json' } });
    });
    try {
      const { platformApi } = await import('@dealer/state/platform-api');
      const carsApi = platformApi.injectEndpoints({
        endpoints: (build) => ({ car: build.query<{ id: number; title: string }, number>({ query: (id) => `/cars/${id}` }) }),
      });

      // The API's state is there now (the store's type has it as a lazily loaded slice).
      const selectCar = carsApi.endpoints.car.select(7);
      expect(selectCar(store.getState() as Parameters<typeof selectCar>[0])).toMatchObject({
        status: 'fulfilled',
        data: { title: 'From the server' },
      });
      // A hydrated answer is not asked again; a new one goes through the API's middleware and the platform's fetch.
      await store.dispatch(carsApi.endpoints.car.initiate(7));
      const fetched = await store.dispatch(carsApi.endpoints.car.initiate(8));
      expect(fetched.data).toEqual({ id: 8, title: 'Fetched' });
      expect(calls).toEqual(['https://dealer.example/api/cars/8']);
      expect(store.getState().platformApi?.config.middlewareRegistered).toBe(true);

      // A store made after the API loaded (every server render) has it from the start.
      expect(createPlatformStore(testSite()).getState().platformApi).toMatchObject({ queries: {} });
    } finally {
      setPlatformFetch(null);
    }
  });
});
