import { mountStandalone } from '@dealer/state/standalone';
import EnquiryForm from './enquiry-form';

mountStandalone(() => (
  <div className="dp-container">
    <EnquiryForm title="Submit an enquiry" />
  </div>
));
