import { FieldError } from './field-error';
import type { FieldHelpers } from './settings-fields';

/** Every per-site switch of the site's config (`features`), in the dealer's words. */
const switchLabels: Record<string, string> = {
  stock_on_homepage: 'Stock on the home page',
  show_postcode: 'Ask for the postcode on forms',
  mobile_only_phone: 'Mobile numbers only on forms',
  au_nz_phone: 'Also take New Zealand and UK phone numbers',
  fuel_tags: 'Fuel tags on cars',
  authentication: 'Shopper sign-in',
  bot_protection: 'Bot protection on forms',
  hide_chat_on_stock_pages: 'Hide the chat on car pages',
  reserve_coming_soon: 'Deposits on coming-soon cars',
  pre_owned_redirect: 'Send used-car links to the pre-owned pages',
  split_testing: 'Split testing',
  redbook: 'RedBook vehicle data',
  dealerstudio: 'DealerStudio',
  plain_spinner: 'A plain loading spinner',
  blog_to_news: 'Blog links go to News',
  uses_pages_path: 'Content pages under /pages/',
};
const chatProviders: Record<string, string> = {
  '': 'The first provider with ids, else the built-in chat',
  built_in: 'The built-in chat (answered in this console)',
  podium: 'Podium',
  livechat: 'LiveChat',
  zendesk: 'Zendesk',
  impel: 'Impel',
};

export type SwitchSettings = {
  features: Record<string, boolean | string | undefined>;
  consent_banner: boolean;
  garage_enabled: boolean;
  include_sold_cars_days: number;
  just_arrived_days: number;
};

type Props = { value: SwitchSettings; onChange: (value: SwitchSettings) => void; fields: FieldHelpers; disabled: boolean };

/** The site's switches and features: each on or off, the chat provider, and how long cars stay "just arrived" and sold ones listed. */
export function SwitchesFieldset({ value, onChange, fields, disabled }: Props) {
  const number = (key: 'include_sold_cars_days' | 'just_arrived_days', label: string, max: number) => (
    <div className="dp-field">
      <label htmlFor={`settings-${key}`}>{label}</label>
      <input
        id={`settings-${key}`}
        type="number"
        min={0}
        max={max}
        inputMode="numeric"
        value={Number.isFinite(value[key]) ? value[key] : ''}
        onChange={(event) => onChange({ ...value, [key]: event.target.value === '' ? Number.NaN : Number(event.target.value) })}
        {...fields.invalid(key)}
      />
      <FieldError path={key} fields={fields} />
    </div>
  );
  return (
    <fieldset disabled={disabled}>
      <legend>Switches</legend>
      {Object.entries(switchLabels).map(([key, label]) => (
        <label key={key} className="dc-settings__switch">
          <input
            type="checkbox"
            checked={Boolean(value.features[key])}
            onChange={(event) => onChange({ ...value, features: { ...value.features, [key]: event.target.checked } })}
          />{' '}
          {label}
        </label>
      ))}
      <label className="dc-settings__switch">
        <input
          type="checkbox"
          checked={value.garage_enabled}
          onChange={(event) => onChange({ ...value, garage_enabled: event.target.checked })}
        />{' '}
        The shoppers’ garage (saved cars and price alerts)
      </label>
      <label className="dc-settings__switch">
        <input
          type="checkbox"
          checked={value.consent_banner}
          onChange={(event) => onChange({ ...value, consent_banner: event.target.checked })}
        />{' '}
        Ask for consent before tracking tags load
      </label>
      <div className="dp-field">
        <label htmlFor="settings-chat-provider">Chat</label>
        <select
          id="settings-chat-provider"
          value={typeof value.features.chat_provider === 'string' ? value.features.chat_provider : ''}
          onChange={(event) => onChange({ ...value, features: { ...value.features, chat_provider: event.target.value || undefined } })}
        >
          {Object.entries(chatProviders).map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
        <FieldError path="features.chat_provider" fields={fields} />
      </div>
      {number('just_arrived_days', 'Days a car is tagged "Just arrived" (0: never)', 90)}
      {number('include_sold_cars_days', 'Days sold cars stay listed (0: none)', 365)}
    </fieldset>
  );
}
