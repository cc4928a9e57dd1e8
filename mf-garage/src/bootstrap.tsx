import { mountStandalone } from '@dealer/state/standalone';
import GaragePage from './garage-page';

mountStandalone(() => <GaragePage tab="saved-cars" />);
