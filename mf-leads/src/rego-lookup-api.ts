import { platformApi } from '@dealer/state/platform-api';
import type { RegisteredVehicle } from '@dealer/rules/rego';

export type RegoLookupAnswer = { found: true; vehicle: RegisteredVehicle } | { found: false; message: string };
export type RegoLookupArgs = { prefix: '/api' | '/mock'; rego: string; regoState: string | null };

/** SPEC §7 "Rego lookup for trade-in": sends rego and regoState. */
export const regoLookupApi = platformApi.injectEndpoints({
  endpoints: (build) => ({
    regoLookup: build.mutation<RegoLookupAnswer, RegoLookupArgs>({
      query: ({ prefix, rego, regoState }) => ({
        url: `${window.location.origin}${prefix}/rego-lookup`,
        method: 'POST',
        body: { rego, regoState },
      }),
    }),
  }),
});

export const { useRegoLookupMutation } = regoLookupApi;
