import { mountStandalone } from '@dealer/state/standalone';
import VehicleDetailPage from './vehicle-detail-page';

// Standalone: /?slug=<car slug> shows that car.
const slug = new URLSearchParams(location.search).get('slug') ?? '';
mountStandalone(() => <VehicleDetailPage slug={slug} />);
