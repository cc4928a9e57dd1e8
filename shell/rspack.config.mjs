import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostConfig } from '@dealer/build/mf-config';

export default hostConfig({ dir: dirname(fileURLToPath(import.meta.url)), firstPaint: './src/federation/first-paint-entry.ts' });
