import { Field } from 'react-final-form';
import type { RequestPhotosButtonProps } from '@dealer/contracts/remote-modules';
import { VehicleLeadModal } from './vehicle-lead-modal';
import { requiredMessage } from './enquiry-rules';

const views = ['Interior', 'Exterior', 'Engine bay', 'Odometer', 'Service history', 'Any damage'];

/** SPEC §2 Request Photos modal (multi-step): which photos, then who. */
export default function RequestPhotosButton(props: RequestPhotosButtonProps) {
  return (
    <VehicleLeadModal
      {...props}
      buttonText="Request photos"
      modalTitle="Request Photos"
      category="vehicle"
      subcategory="Request Photos"
      firstStep={{
        title: 'Which photos would you like?',
        initialValues: { photos_requested: [] },
        validate: (values): Record<string, string> => ((values.photos_requested as string[] | undefined)?.length ? {} : { photos_requested: requiredMessage }),
        fields: (
          <fieldset className="dp-field">
            <legend>Photos</legend>
            {views.map((view) => (
              <label key={view} className="dp-check">
                <Field name="photos_requested" component="input" type="checkbox" value={view} /> {view}
              </label>
            ))}
            <Field name="photos_requested" subscription={{ error: true, submitFailed: true }}>
              {({ meta }) => (meta.submitFailed && meta.error ? <span className="dp-field__error">{meta.error}</span> : null)}
            </Field>
          </fieldset>
        ),
      }}
    />
  );
}
