import { useMemo, useState } from 'react';
import { Form, Field } from 'react-final-form';
import { useNavigate } from 'react-router-dom';
import type { EnquiryFormProps } from '@dealer/contracts/remote-modules';
import { enquiryTypes } from '@dealer/contracts/lead-values';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { normaliseStoredCategory, successCategory } from '@dealer/rules/enquiry';
import { t } from '@dealer/rules/locale';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import { FormCard } from '@dealer/ui/form-card';
import { submitFailureText, submitLead } from './submit-lead';
import { loadSavedDetails, saveDetails } from './saved-details';
import { requiredMessage, validateEnquiry, type EnquiryValues } from './enquiry-rules';

type Props = EnquiryFormProps & {
  category?: string;
  subcategory?: string;
  showCategory?: boolean;
  /** Values gathered by earlier steps of a multi-step form, sent with the lead. */
  extra?: Record<string, unknown>;
  step?: { index: number; count: number; onBack: () => void };
};

function TextField({ name, label, type = 'text', autoComplete, multiline = false }: { name: keyof EnquiryValues; label: string; type?: string; autoComplete?: string; multiline?: boolean }) {
  return (
    <Field name={name}>
      {({ input, meta }) => {
        const error = meta.submitFailed || meta.submitSucceeded ? (meta.error ?? meta.submitError) : undefined;
        const id = `enquiry-${name}`;
        return (
          <div className={`dp-field${error ? ' dp-field--invalid' : ''}`}>
            <label htmlFor={id}>{label}</label>
            {multiline ? (
              <textarea id={id} {...input} aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined} />
            ) : (
              <input id={id} type={type} autoComplete={autoComplete} {...input} aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined} />
            )}
            {error && (
              <span id={`${id}-error`} className="dp-field__error">
                {error}
              </span>
            )}
          </div>
        );
      }}
    </Field>
  );
}

/**
 * The enquiry form (SPEC §4, §5): validates on submit, stores the lead before success, then
 * remembers the shopper's details and goes to /success with the derived category.
 */
export default function EnquiryForm({ carId, carType, stockNumber, title = 'Submit an enquiry', category: fixedCategory, subcategory: fixedSubcategory, showCategory = !carId, extra, step, onSubmitted }: Props) {
  const site = useAppSelector(selectSite);
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  // One key per attempt: a resubmit after a network drop is recognised by the server.
  const [attemptKey, setAttemptKey] = useState(() => crypto.randomUUID());
  const initialValues = useMemo<EnquiryValues>(
    () => ({ category: fixedCategory ?? 'General Enquiry', name: '', last_name: '', email: '', phone: '', message: '', opt_in: true, ...loadSavedDetails(site.slug) }),
    [fixedCategory, site.slug],
  );

  return (
    <Form<EnquiryValues>
      initialValues={initialValues}
      validate={validateEnquiry}
      onSubmit={async (values) => {
        setFailure(null);
        const normalised = normaliseStoredCategory(values.category);
        const category = normalised.category;
        const subcategory = normalised.subcategory ?? fixedSubcategory;
        const result = await submitLead(
          {
            ...extra,
            ...values,
            category,
            ...(subcategory ? { subcategory } : {}),
            ...(carId ? { car_id: carId, car_type: carType, stock_number: stockNumber } : {}),
            url: location.href,
          },
          attemptKey,
        );
        if (result.leadId === null) {
          window.alert(submitFailureText);
          setFailure(result.message);
          return result.fields;
        }
        saveDetails(site.slug, values);
        const success = successCategory(category, carType);
        sessionStorage.setItem(`dealer:${site.slug}:success-category`, success);
        dispatchPlatformEvent('lead:submitted', { leadId: result.leadId, category, successCategory: success });
        setAttemptKey(crypto.randomUUID());
        onSubmitted?.(result.leadId);
        navigate(`/success?category=${encodeURIComponent(success)}`);
        return undefined;
      }}
    >
      {({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate className="enquiry-form" data-remote-version={__REMOTE_VERSION__}>
          <FormCard
            title={t(site.locale, title)}
            stepIndex={step?.index ?? 0}
            stepCount={step?.count ?? 1}
            onBack={step?.onBack}
            submitting={submitting}
            error={failure ? { text: failure, tone: 'destructive' } : null}
          >
            {showCategory && !fixedCategory && (
              <Field name="category">
                {({ input }) => (
                  <div className="dp-field">
                    <label htmlFor="enquiry-category">{t(site.locale, 'Enquiry type')}</label>
                    <select id="enquiry-category" {...input}>
                      {enquiryTypes.map((type) => (
                        <option key={type} value={type}>
                          {t(site.locale, type)}
                        </option>
                      ))}
                    </select>
                  </div>
                )}
              </Field>
            )}
            <TextField name="name" label="First name" autoComplete="given-name" />
            <TextField name="last_name" label="Last name" autoComplete="family-name" />
            <TextField name="email" label="Email" type="email" autoComplete="email" />
            <TextField name="phone" label="Phone" type="tel" autoComplete="tel" />
            <TextField name="message" label="Comments" multiline />
            <Field name="opt_in" type="checkbox">
              {({ input }) => (
                <div className="dp-field dp-field--check">
                  <label>
                    <input {...input} /> Keep me updated with news and offers
                  </label>
                </div>
              )}
            </Field>
            <p className="dp-visually-hidden">{requiredMessage}</p>
          </FormCard>
        </form>
      )}
    </Form>
  );
}
