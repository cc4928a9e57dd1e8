import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteConfig } from '@dealer/build/mf-config';

export default remoteConfig({
  dir: dirname(fileURLToPath(import.meta.url)),
  name: 'mf-checkout',
  port: 3104,
  // ReservationsList: the dealer console's screen (shared/contracts dealerScreens).
  exposes: {
    './CheckoutPage': './src/checkout-page.tsx',
    './ReserveButton': './src/reserve-button.tsx',
    './ReservationsList': './src/dealer/reservations-list.tsx',
  },
  // Reserve sits among the vehicle page's calls to action without a release of the vehicle remote.
  slots: { 'vehicle.actions': ['ReserveButton'] },
  server: './src/server.ts',
});
