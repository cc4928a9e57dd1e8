import { FieldError } from './field-error';
import type { Address, FieldHelpers, Hours, LocationSettings } from './settings-fields';

const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const addressLabels: Record<keyof Address, string> = { street: 'Street', city: 'Suburb or city', state: 'State', postcode: 'Postcode' };

type Props = {
  locations: LocationSettings[];
  onChange: (locations: LocationSettings[]) => void;
  fields: FieldHelpers;
  disabled: boolean;
};

/** Each location's name, phone, e-mail, address and opening hours, as shoppers see them on the site. */
export function LocationsFieldset({ locations, onChange, fields, disabled }: Props) {
  const change = (id: number, patch: (location: LocationSettings) => LocationSettings) =>
    onChange(locations.map((location) => (location.id === id ? patch(location) : location)));
  const setHours = (id: number, weekday: number, hours: Partial<Hours>) =>
    change(id, (location) => ({
      ...location,
      opening_hours: location.opening_hours.map((day) => (day.weekday === weekday ? { ...day, ...hours } : day)),
    }));

  return (
    <fieldset disabled={disabled}>
      <legend>Locations and opening hours</legend>
      {locations.map((location, index) => {
        const path = (field: string) => `locations.${index}.${field}`;
        const input = (field: string, label: string, value: string, set: (value: string) => void, type = 'text') => (
          <div className="dp-field" key={field}>
            <label htmlFor={`location-${location.id}-${field}`}>{label}</label>
            <input
              id={`location-${location.id}-${field}`}
              type={type}
              value={value}
              onChange={(event) => set(event.target.value)}
              {...fields.invalid(path(field))}
            />
            <FieldError path={path(field)} fields={fields} />
          </div>
        );
        return (
          <section key={location.id} className="dc-location" aria-labelledby={`location-${location.id}-title`}>
            <h3 id={`location-${location.id}-title`}>{location.name || 'Location'}</h3>
            {input('name', 'Name', location.name, (name) => change(location.id, (one) => ({ ...one, name })))}
            {input('phone', 'Phone', location.phone, (phone) => change(location.id, (one) => ({ ...one, phone })), 'tel')}
            {input(
              'email',
              'E-mail',
              location.email ?? '',
              (email) => change(location.id, (one) => ({ ...one, email: email || null })),
              'email',
            )}
            {(Object.keys(addressLabels) as (keyof Address)[]).map((part) =>
              input(`address.${part}`, addressLabels[part], location.address[part], (value) =>
                change(location.id, (one) => ({ ...one, address: { ...one.address, [part]: value } })),
              ),
            )}
            <table className="dc-hours">
              <caption>Opening hours of {location.name}</caption>
              <tbody>
                {[...location.opening_hours]
                  .sort((a, b) => ((a.weekday + 6) % 7) - ((b.weekday + 6) % 7))
                  .map((day) => (
                    <tr key={day.weekday}>
                      <th scope="row">{days[day.weekday]}</th>
                      <td>
                        <label>
                          <span className="dp-visually-hidden">
                            {location.name} {days[day.weekday]} open
                          </span>
                          <select
                            value={day.status}
                            onChange={(event) =>
                              setHours(location.id, day.weekday, {
                                status: event.target.value as Hours['status'],
                                open: day.open ?? '09:00',
                                close: day.close ?? '17:00',
                              })
                            }
                          >
                            <option value="Open">Open</option>
                            <option value="Closed">Closed</option>
                          </select>
                        </label>
                      </td>
                      <td>
                        {day.status === 'Open' ? (
                          <>
                            <label>
                              <span className="dp-visually-hidden">
                                {location.name} {days[day.weekday]} opens at
                              </span>
                              <input
                                type="time"
                                value={day.open ?? ''}
                                onChange={(event) => setHours(location.id, day.weekday, { open: event.target.value })}
                              />
                            </label>{' '}
                            to{' '}
                            <label>
                              <span className="dp-visually-hidden">
                                {location.name} {days[day.weekday]} closes at
                              </span>
                              <input
                                type="time"
                                value={day.close ?? ''}
                                onChange={(event) => setHours(location.id, day.weekday, { close: event.target.value })}
                              />
                            </label>
                          </>
                        ) : null}
                      </td>
                    </tr>
                  ))}
              </tbody>
            </table>
            <FieldError path={path('opening_hours')} fields={fields} />
          </section>
        );
      })}
    </fieldset>
  );
}
