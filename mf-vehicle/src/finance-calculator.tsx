import { useId, useState } from 'react';
import type { Car } from '@dealer/contracts/car';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { defaultInterestRate, financeLink, financeRepayment, financeTermsMonths, type RepaymentFrequency } from '@dealer/rules/finance';
import { formatPrice } from '@dealer/rules/price';
import { eventIds } from '@dealer/rules/enquiry';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import { Link } from 'react-router-dom';

const frequencyLabels: Record<RepaymentFrequency, string> = { weekly: 'Weekly', fortnightly: 'Fortnightly', monthly: 'Monthly' };

/** SPEC §6, §9: repayments at 10% by default, with the shopper's deposit, term and frequency. */
export function FinanceCalculator({ car, site }: { car: Car; site: PublicSiteConfig }) {
  const id = useId();
  const [deposit, setDeposit] = useState(String(Math.round(car.price * 0.1)));
  const [termMonths, setTermMonths] = useState<number>(60);
  const [frequency, setFrequency] = useState<RepaymentFrequency>('weekly');
  const depositAmount = Number(deposit.replace(/[^\d.]/g, '')) || 0;
  const repayment = financeRepayment({ price: car.price, deposit: depositAmount, termMonths, frequency });
  return (
    <section className="finance-calculator" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Finance calculator</h2>
      <div className="finance-calculator__inputs">
        <label className="dp-field">
          <span>Deposit ($)</span>
          <input inputMode="numeric" value={deposit} onChange={(e) => setDeposit(e.target.value)} />
        </label>
        <label className="dp-field">
          <span>Term</span>
          <select value={termMonths} onChange={(e) => setTermMonths(Number(e.target.value))}>
            {financeTermsMonths.map((months) => (
              <option key={months} value={months}>{`${months / 12} years`}</option>
            ))}
          </select>
        </label>
        <label className="dp-field">
          <span>Repayments</span>
          <select value={frequency} onChange={(e) => setFrequency(e.target.value as RepaymentFrequency)}>
            {Object.entries(frequencyLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="finance-calculator__result" aria-live="polite" data-testid="finance-repayment">
        {`${formatPrice(repayment, { locale: site.locale })} ${frequencyLabels[frequency].toLowerCase()}`}
      </p>
      <p className="finance-calculator__terms">{`Estimate at ${defaultInterestRate}% p.a. over ${termMonths} months. Not an offer of credit.`}</p>
      <FinanceLink car={car} site={site} />
    </section>
  );
}

/** SPEC §2: the finance page with the car's context; the click is event 58. */
export function FinanceLink({ car, site }: { car: Car; site: PublicSiteConfig }) {
  return (
    <Link
      className="dp-button dp-button--secondary finance-link"
      to={financeLink(site, car)}
      onClick={() => dispatchPlatformEvent('analytics:track', { eventId: eventIds.financeRedirectClick, label: car.name })}
    >
      Apply for finance
    </Link>
  );
}
