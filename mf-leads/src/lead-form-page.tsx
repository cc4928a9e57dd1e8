import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { LeadFormPageProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { t } from '@dealer/rules/locale';
import { LeadForm } from './form-engine/lead-form';
import { careersForm, contactForm, financeForm, serviceForm, testDriveForm, tradeInForm } from './form-engine/form-definitions';

/** SPEC §2: the finance page takes these from the query (a car's finance link sends them). */
const financeQuery = ['preferredDealership', 'vehiclePriceBudget', 'car_id', 'car_type', 'vin'] as const;

/** The form pages (finance, test drive, service, trade-in, contact, careers) on the form engine. */
export default function LeadFormPage({ form, page, embedded }: LeadFormPageProps) {
  const site = useAppSelector(selectSite);
  const [params] = useSearchParams();
  const def = useMemo(() => {
    switch (form) {
      case 'finance':
        return financeForm(site);
      case 'test-drive':
        return testDriveForm(site, { hasCar: false });
      case 'service':
        return serviceForm(site);
      case 'trade-in':
        return tradeInForm(site);
      case 'careers':
        return careersForm(site);
      default:
        return contactForm(site);
    }
  }, [form, site]);
  const initial = useMemo(
    () =>
      form === 'finance' ? Object.fromEntries(financeQuery.flatMap((key) => (params.get(key) ? [[key, params.get(key)]] : []))) : undefined,
    [form, params],
  );
  const title = t(site.locale, def.title);
  // A page of its own names the document; placed in a dealer's page, the page does.
  useEffect(() => {
    if (!embedded) document.title = `${def.title} | ${site.name}`;
  }, [embedded, def.title, site.name]);
  return (
    <div
      className={embedded ? 'lead-form-page lead-form-page--embedded' : 'dp-container lead-form-page'}
      data-form={form}
      data-page={page ?? ''}
    >
      {embedded === 'no-heading' ? null : embedded ? <h2>{title}</h2> : <h1>{title}</h1>}
      <div id={form === 'finance' ? 'finance-form' : undefined}>
        <LeadForm def={def} initial={initial} carType={initial?.car_type as string | undefined} />
      </div>
    </div>
  );
}
