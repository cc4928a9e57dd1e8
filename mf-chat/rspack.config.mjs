import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteConfig } from '@dealer/build/mf-config';

export default remoteConfig({
  dir: dirname(fileURLToPath(import.meta.url)),
  name: 'mf-chat',
  port: 3106,
  exposes: { './ChatWidget': './src/chat-widget.tsx' },
});
