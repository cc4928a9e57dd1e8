import { mountStandalone } from '@dealer/state/standalone';
import CheckoutPage from './checkout-page';

const slug = new URLSearchParams(location.search).get('slug');
mountStandalone(() => <CheckoutPage slug={slug} />);
