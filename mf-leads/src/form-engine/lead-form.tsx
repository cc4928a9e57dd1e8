import { useMemo, useReducer, useState } from 'react';
import { Field, Form } from 'react-final-form';
import { useNavigate } from 'react-router-dom';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import {
  finalSubmitLead,
  initialMultiStepState,
  multiStepTransition,
  partialSavePlan,
  saveErrorDisplay,
  type MultiStepAction,
  type MultiStepState,
} from '@dealer/rules/multi-step';
import { initialValues as ruleDefaults, isFieldShown, validateFields } from '@dealer/rules/lead-validation';
import { phoneRuleFor } from '@dealer/rules/phone';
import { conversionEventId, normaliseStoredCategory, successCategory } from '@dealer/rules/enquiry';
import { FormCard } from '@dealer/ui/form-card';
import { FieldRenderer } from './field-renderer';
import { bookingLocationFor } from '@dealer/rules/booking-locations';
import type { FieldDef, FieldValues, FormDef } from './field-types';
import { BookingTimesAhead, bookingTimesArgs, type BookingTimesArgs } from '../booking-times-api';
import { saveLead } from '../lead-client';
import { loadSavedDetails, saveDetails } from '../saved-details';
import { submitFailureText } from '../submit-lead';
import { pageContext } from './page-context';
import { leadFormStartedAtField, leadHoneypotFields } from '@dealer/contracts/lead-values';

type Props = {
  def: FormDef;
  /** Values the form starts with beyond the saved details (query prefill, the car's context). */
  initial?: FieldValues;
  /** Sent with the lead but never shown (car id, stock number, dealership). */
  context?: FieldValues;
  carType?: string | null;
  /** The car the form is about, for the SPEC §9 conversion event (new/used, test drive, Test Drive Only). */
  car?: { car_type: string; tag: string | null } | null;
  onSubmitted?: (leadId: number) => void;
};

type Progress = { state: MultiStepState; leadId: number | null; updateToken: string | null };

function progressReducer(
  current: Progress,
  action: MultiStepAction | { type: 'saved'; leadId: number; updateToken: string | null },
): Progress {
  if (action.type === 'saved') {
    const saved = multiStepTransition(current.state, { type: 'markSaved', leadId: action.leadId }).state;
    return { state: saved, leadId: action.leadId, updateToken: action.updateToken ?? current.updateToken };
  }
  const { state, event } = multiStepTransition(current.state, action);
  // SPEC §9: moving forward sends a step-tracking event (32, label ' - Step {n}').
  if (event) dispatchPlatformEvent('analytics:track', { eventId: event.eventId, label: event.label });
  return { ...current, state };
}

/**
 * A lead form declared as data, one or several steps (SPEC §4): validates each step on submit,
 * saves earlier steps as an Incomplete lead, and the last step completes the same lead.
 */
export function LeadForm({ def, initial, context, carType, car, onSubmitted }: Props) {
  const site = useAppSelector(selectSite);
  const navigate = useNavigate();
  const [progress, dispatch] = useReducer(progressReducer, undefined, () => ({
    state: initialMultiStepState(def.steps.length),
    leadId: null,
    updateToken: null,
  }));
  const [submitting, setSubmitting] = useState(false);
  // One key per form: a create retried after a dropped connection is recognised by the server.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  // Spam signals the server weighs (time trap); a person never sees or fills the honeypot.
  const [startedAt] = useState(() => Date.now());
  const { state } = progress;
  const step = def.steps[state.stepIndex]!;
  const last = state.stepIndex === def.steps.length - 1;
  const phoneRule = phoneRuleFor(site);
  const startValues = useMemo<FieldValues>(
    () => ({
      ...def.steps.reduce<FieldValues>((all, s) => ({ ...all, ...ruleDefaults(s.fields) }), {}),
      ...loadSavedDetails(site.slug),
      ...initial,
    }),
    [def, initial, site.slug],
  );

  // A booking time the shopper cleared is sent as '' so the server gives the seat back (an
  // absent field would leave the time saved with an earlier step in place).
  const clearedTimes = (values: FieldValues) =>
    Object.fromEntries(
      def.steps.flatMap((s) =>
        s.fields.filter((f) => f.bookingKind && (values[f.name] === undefined || values[f.name] === null)).map((f) => [f.name, '']),
      ),
    );
  const buildLead = (values: FieldValues) => {
    const { category, subcategory } = normaliseStoredCategory(String(values.category ?? def.category));
    return {
      ...context,
      ...values,
      ...clearedTimes(values),
      category,
      ...(subcategory || def.subcategory ? { subcategory: subcategory ?? def.subcategory } : {}),
      ...pageContext(),
      [leadFormStartedAtField]: startedAt,
    };
  };
  const filesOf = (values: FieldValues) =>
    def.steps
      .flatMap((s) => s.fields.filter((f) => f.type === 'file'))
      .flatMap((f) => Array.from((values[f.name] as FileList | null | undefined) ?? []));
  /** The server names the files it refused `files` (their multipart name): said beside the form's own file field. */
  const fieldErrorsOf = (fields: Record<string, string> | undefined) => {
    const fileField = def.steps.flatMap((s) => s.fields).find((f) => f.type === 'file');
    if (!fields?.files || !fileField || fileField.name === 'files') return fields;
    const { files, ...rest } = fields;
    return { ...rest, [fileField.name]: files };
  };
  const withoutFiles = (values: FieldValues) => {
    const copy = { ...values };
    for (const s of def.steps) for (const f of s.fields) if (f.type === 'file') delete copy[f.name];
    return copy;
  };

  const onSubmit = async (values: FieldValues) => {
    setSubmitting(true);
    try {
      if (!last) {
        if (def.partialSave === false) {
          dispatch({ type: 'next', label: def.title });
          return undefined;
        }
        const plan = partialSavePlan({ ...state, leadId: progress.leadId ?? undefined }, withoutFiles(values));
        if (plan.kind === 'advance') {
          dispatch({ type: 'next', label: def.title });
          return undefined;
        }
        const result = await saveLead({
          lead: buildLead(plan.lead),
          leadId: progress.leadId,
          updateToken: progress.updateToken,
          idempotencyKey: `${idempotencyKey}-step`,
          apiPrefix: site.api_prefix,
        });
        if (result.leadId === null) {
          dispatch({ type: 'setError', error: result.message });
          return result.fields;
        }
        dispatch({ type: 'saved', leadId: result.leadId, updateToken: result.updateToken });
        dispatch({ type: 'next', label: def.title });
        return undefined;
      }
      const lead = finalSubmitLead(withoutFiles(values), { ...state, leadId: progress.leadId ?? undefined });
      const result = await saveLead({
        lead: buildLead(lead),
        leadId: progress.leadId,
        updateToken: progress.updateToken,
        files: filesOf(values),
        idempotencyKey,
        apiPrefix: site.api_prefix,
      });
      if (result.leadId === null) {
        // SPEC §8: a browser alert and the message inline; the values stay.
        window.alert(submitFailureText);
        dispatch({ type: 'setError', error: result.message });
        const fields = fieldErrorsOf(result.fields);
        // A refused answer on an earlier step (a booked time gone meanwhile): take the shopper there.
        const refusedStep = def.steps.findIndex((s) => s.fields.some((f) => fields?.[f.name] !== undefined));
        if (refusedStep >= 0 && refusedStep < state.stepIndex) dispatch({ type: 'fix', target: refusedStep });
        return fields;
      }
      saveDetails(site.slug, values);
      const category = normaliseStoredCategory(String(values.category ?? def.category)).category;
      const success = successCategory(category, carType);
      sessionStorage.setItem(`dealer:${site.slug}:success-category`, success);
      const eventId = conversionEventId({
        category,
        subcategory: def.subcategory ?? null,
        car: car ? { car_type: car.car_type as 'new' | 'used' | 'demo', tag: car.tag } : null,
        testDrive: def.subcategory === 'Test Drive',
        customEventId: def.conversionEventId,
      });
      dispatchPlatformEvent('analytics:track', { eventId, label: def.title });
      dispatchPlatformEvent('lead:submitted', { leadId: result.leadId, category, successCategory: success });
      onSubmitted?.(result.leadId);
      navigate(`/success?category=${encodeURIComponent(success)}`);
      return undefined;
    } finally {
      setSubmitting(false);
    }
  };

  const locationFor = (field: FieldDef, values: FieldValues) =>
    field.bookingKind
      ? bookingLocationFor(site.locations, field.bookingKind, {
          location: values.location,
          location_id: values.location_id ?? context?.location_id,
        })
      : undefined;
  const carId = typeof context?.car_id === 'number' ? context.car_id : undefined;
  // The free times of a booking on the next step are asked for while the shopper is on this one, so the
  // step opens with its times in place rather than "Loading available times…" that pushes its buttons down.
  const timesAhead = (values: FieldValues): BookingTimesArgs[] =>
    (def.steps[state.stepIndex + 1]?.fields ?? []).flatMap((field) => {
      const location = locationFor(field, values);
      return field.bookingKind && location ? [bookingTimesArgs(site.api_prefix, field.bookingKind, location, carId)] : [];
    });

  const validate = (values: FieldValues) => validateFields(step.fields, values, { phoneRule, locale: site.locale });
  const error = state.error ? saveErrorDisplay(state.error, step.heading) : null;

  return (
    <Form<FieldValues> initialValues={startValues} validate={validate} onSubmit={onSubmit} keepDirtyOnReinitialize>
      {({ handleSubmit, values }) => (
        <form
          onSubmit={handleSubmit}
          noValidate
          className="lead-form"
          data-form={def.id}
          data-lead-id={progress.leadId ?? ''}
          data-remote-version={__REMOTE_VERSION__}
        >
          <FormCard
            title={step.heading}
            stepIndex={state.stepIndex}
            stepCount={def.steps.length}
            complete={state.complete}
            error={error}
            submitting={submitting}
            onBack={state.stepIndex > 0 ? () => dispatch({ type: 'back' }) : undefined}
          >
            <div className="dp-visually-hidden" aria-hidden="true">
              <label>
                Leave this empty
                <Field name={leadHoneypotFields[0]} component="input" tabIndex={-1} autoComplete="off" />
              </label>
            </div>
            {step.fields
              .filter((field) => isFieldShown(field, values))
              .map((field) => (
                <FieldRenderer
                  key={field.name}
                  field={field}
                  onSkip={(target) => dispatch({ type: 'skipTo', target })}
                  bookingLocation={locationFor(field, values)}
                  carId={carId}
                />
              ))}
            {!state.complete && <BookingTimesAhead args={timesAhead(values)} />}
          </FormCard>
        </form>
      )}
    </Form>
  );
}
