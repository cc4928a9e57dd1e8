import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteConfig } from '@dealer/build/mf-config';

export default remoteConfig({
  dir: dirname(fileURLToPath(import.meta.url)),
  name: 'mf-vehicle',
  port: 3102,
  exposes: {
    './VehicleDetailPage': './src/vehicle-detail-page.tsx',
    // The dealer console's screen (shared/contracts dealerScreens).
    './StockList': './src/dealer/stock-list.tsx',
  },
  server: './src/server.ts',
});
