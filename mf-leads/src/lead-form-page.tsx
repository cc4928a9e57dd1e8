import type { LeadFormPageProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { t } from '@dealer/rules/locale';
import { usePageTitle } from '@dealer/ui/page-title';
import EnquiryForm from './enquiry-form';

const forms: Record<LeadFormPageProps['form'], { title: string; category: string }> = {
  finance: { title: 'Apply for finance', category: 'Finance Enquiry' },
  'test-drive': { title: 'Book a test drive', category: 'New Vehicle Enquiry' },
  service: { title: 'Book a service', category: 'Service Enquiry' },
  'trade-in': { title: 'Value your trade-in', category: 'Sell My Car Enquiry' },
  contact: { title: 'Contact us', category: 'General Enquiry' },
  careers: { title: 'Careers', category: 'Careers Enquiry' },
};

/** The form pages (finance, test drive, service, trade-in, contact, careers) on the one enquiry engine. */
export default function LeadFormPage({ form, page }: LeadFormPageProps) {
  const site = useAppSelector(selectSite);
  const { title, category } = forms[form];
  usePageTitle(title, site.name);
  return (
    <div className="dp-container lead-form-page" data-form={form} data-page={page ?? ''}>
      <h1>{t(site.locale, title)}</h1>
      <div id={form === 'finance' ? 'finance-form' : undefined}>
        <EnquiryForm title={title} category={category} showCategory={form === 'contact'} />
      </div>
    </div>
  );
}
