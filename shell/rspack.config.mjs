import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostConfig } from '@dealer/build/mf-config';

// Two bundles, both started from src/boot/ (the sequence is in boot/first-script.ts): the first
// script, bundled alone, and the app, whose entry replaces the shared config's src/index.ts.
export default {
  ...hostConfig({ dir: dirname(fileURLToPath(import.meta.url)), firstPaint: './src/boot/first-script.ts' }),
  entry: { main: './src/boot/app-entry.ts' },
};
