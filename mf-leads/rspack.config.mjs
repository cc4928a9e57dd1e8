import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteConfig } from '@dealer/build/mf-config';

export default remoteConfig({
  dir: dirname(fileURLToPath(import.meta.url)),
  name: 'mf-leads',
  port: 3103,
  exposes: {
    './EnquiryForm': './src/enquiry-form.tsx',
    './SuccessPage': './src/success-page.tsx',
    './LeadFormPage': './src/lead-form-page.tsx',
    './EnquireButton': './src/enquire-button.tsx',
    './TestDriveButton': './src/test-drive-button.tsx',
    './RequestPhotosButton': './src/request-photos-button.tsx',
    // The dealer console's screen (shared/contracts dealerScreens).
    './LeadsInbox': './src/dealer/leads-inbox.tsx',
  },
  server: './src/server.ts',
});
