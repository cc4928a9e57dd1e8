import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteConfig } from '@dealer/build/mf-config';

export default remoteConfig({
  dir: dirname(fileURLToPath(import.meta.url)),
  name: 'mf-chat',
  port: 3106,
  // ChatInbox: the dealer console's screen (shared/contracts dealerScreens).
  exposes: { './ChatWidget': './src/chat-widget.tsx', './ChatInbox': './src/dealer/chat-inbox.tsx' },
});
