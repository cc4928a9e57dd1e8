import { Field } from 'react-final-form';
import type { TestDriveButtonProps } from '@dealer/contracts/remote-modules';
import { VehicleLeadModal } from './vehicle-lead-modal';
import { requiredMessage } from './enquiry-rules';

const times = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00', '16:30'];

function DateTimeFields() {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <Field name="date">
        {({ input, meta }) => (
          <div className={`dp-field${meta.submitFailed && meta.error ? ' dp-field--invalid' : ''}`}>
            <label htmlFor="test-drive-date">Preferred date</label>
            <input id="test-drive-date" type="date" min={today} {...input} />
            {meta.submitFailed && meta.error && <span className="dp-field__error">{meta.error}</span>}
          </div>
        )}
      </Field>
      <Field name="time">
        {({ input, meta }) => (
          <div className={`dp-field${meta.submitFailed && meta.error ? ' dp-field--invalid' : ''}`}>
            <label htmlFor="test-drive-time">Preferred time</label>
            <select id="test-drive-time" {...input}>
              <option value="">Choose a time</option>
              {times.map((time) => (
                <option key={time} value={time}>
                  {time}
                </option>
              ))}
            </select>
            {meta.submitFailed && meta.error && <span className="dp-field__error">{meta.error}</span>}
          </div>
        )}
      </Field>
    </>
  );
}

/** SPEC §2 Book a Test Drive modal (multi-step): when, then who. */
export default function TestDriveButton(props: TestDriveButtonProps) {
  return (
    <VehicleLeadModal
      {...props}
      buttonText="Book a test drive"
      modalTitle="Book a Test Drive"
      category="vehicle"
      subcategory="Test Drive"
      firstStep={{
        title: 'When would you like to drive it?',
        initialValues: { date: '', time: '' },
        validate: (values) => {
          const errors: Record<string, string> = {};
          if (!values.date) errors.date = requiredMessage;
          if (!values.time) errors.time = requiredMessage;
          return errors;
        },
        fields: <DateTimeFields />,
        // SPEC §3 enquiry payload: the booking as one dateTime field.
        toLead: (values) => ({ dateTime: `${String(values.date)}T${String(values.time)}` }),
      }}
    />
  );
}
