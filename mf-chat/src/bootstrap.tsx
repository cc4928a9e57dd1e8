import { mountStandalone } from '@dealer/state/standalone';
import ChatWidget from './chat-widget';

mountStandalone(() => <ChatWidget />);
