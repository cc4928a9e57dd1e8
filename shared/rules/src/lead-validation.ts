// Zod-free on purpose: the form engine's browser bundle and the server's lead pipeline both run
// these rules, so the shopper and the API see the same messages for the same values.
import { formMessages } from '@dealer/contracts/lead-values';
import type { SiteLocale } from '@dealer/contracts/site';
import { defaultEnquiryCategory } from './enquiry';
import type { LeadSettings } from './lead-payload';
import { validatePhone, type PhoneRule } from './phone';

/** SPEC §3 form field types, in the SPEC's order. */
export const formFieldTypes = [
  'address',
  'button',
  'cardNumber',
  'CCExpiration',
  'check',
  'checkGroup',
  'checkCard',
  'cricksSpecialLocation',
  'currency',
  'dateTimeGeneric',
  'dateTime',
  'distance',
  'dob',
  'email',
  'expiryDate',
  'file',
  'fullName',
  'hidden',
  'kilometre',
  'licenseNumber',
  'locationSelectCustom',
  'locationSelect',
  'make',
  'model',
  'number',
  'optIn',
  'phone',
  'postcode',
  'radio',
  'radioGroup',
  'radioCardGroup',
  'rego',
  'select',
  'serviceInterval',
  'starRating',
  'string',
  'textarea',
  'tyres',
  'websiteLocationSelect',
  'year',
  'cricksInstalled',
] as const;
/** A SPEC §3 field type, or 'custom' for a field rendered by a custom component. */
export type FormFieldType = (typeof formFieldTypes)[number] | 'custom';

/** SPEC §5 postcode message, word for word, and the US one (SPEC has no US wording). */
export const postcodeMessages = {
  invalid: 'Invalid postcode. Please enter a 4-digit number.',
  invalidZip: 'Invalid ZIP code. Please enter a 5-digit number.',
} as const;

export type FormValues = Readonly<Record<string, unknown>>;

/** A select option. Location selects carry value (the id) and name (SPEC §3); others a label. */
export type SelectOption = { value: string | number; label?: string; name?: string };

/** SPEC §5 "shown conditionally on another field's value or a function". */
export type ShowIf = ((values: FormValues) => boolean) | { field: string; equals: unknown } | { field: string; in: readonly unknown[] };

export type FieldRule = {
  /** The value's key. For fullName it holds the first name; middle_name and last_name sit beside it. */
  name: string;
  type: FormFieldType;
  /** Default wording for the form engine; screens may translate or replace it. */
  label?: string;
  /** SPEC §5: every field is required unless made optional. */
  optional?: boolean;
  /** SPEC §5 custom required rule; when given it decides, overriding `optional`. */
  required?: (values: FormValues) => boolean;
  /** Hidden fields are neither rendered nor validated. */
  showIf?: ShowIf;
  /** Select-like fields: an empty list renders nothing and so is never required (SPEC §5). */
  options?: readonly SelectOption[];
  /** Initial value for the form (see initialValues). */
  defaultValue?: unknown;
  /** fullName only: whether the optional middle name input is shown. */
  middleName?: boolean;
  /** Extra check run on a non-empty, shown value after the built-in ones; return a message or null. */
  validate?: (value: unknown, values: FormValues) => string | null;
};

export type ValidationContext = {
  phoneRule: PhoneRule;
  /** en-US sites take 5-digit ZIP codes in postcode fields; the rest 4-digit postcodes. */
  locale?: SiteLocale;
};

const selectTypes: ReadonlySet<FormFieldType> = new Set(['select', 'locationSelect', 'locationSelectCustom', 'websiteLocationSelect']);

/** Checkbox-like fields, where an unticked false counts as not filled in. */
const tickTypes: ReadonlySet<FormFieldType> = new Set(['check', 'checkCard', 'optIn']);

/** Fields with nothing for the shopper to fill in. A required error there could never be fixed. */
const inertTypes: ReadonlySet<FormFieldType> = new Set(['hidden', 'button']);

/** SPEC §3: the fullName field's companions. */
export const middleNameField = 'middle_name';
export const lastNameField = 'last_name';
/** Stand-alone name fields that get the SPEC §5 letters-and-spaces rule. */
const nameFields = new Set(['first_name', middleNameField, lastNameField]);

// Unicode letters (with combining marks) so Zoë, José and Māori names with macrons count as
// "alphabetical"; hyphens and apostrophes are refused, as SPEC says letters and spaces only.
const namePattern = /^[\p{L}\p{M} ]+$/u;
// The usual "standard address pattern": local part, @, domain with a dot and a 2+ letter TLD.
const emailPattern = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;
const postcodePattern = /^\d{4}$/;
const zipPattern = /^\d{5}$/;

/** SPEC §5 max length of the postcode input: 4, or 5 for US ZIP codes. */
export function postcodeMaxLength(locale?: SiteLocale): number {
  return locale === 'en-US' ? 5 : 4;
}

/**
 * Whether a value counts as filled in: blank text, null, empty lists and objects whose every
 * entry is empty do not. `false` only counts as empty on tick fields, so a required Yes/No
 * radio answered No is filled in.
 */
export function isEmptyValue(value: unknown, type?: FormFieldType): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'boolean') return !value && type !== undefined && tickTypes.has(type);
  if (typeof value === 'number') return Number.isNaN(value);
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') {
    // FileList and similar array-likes
    const length = (value as { length?: unknown }).length;
    if (typeof length === 'number') return length === 0;
    if (Object.getPrototypeOf(value) === Object.prototype) {
      return Object.values(value).every((entry) => isEmptyValue(entry));
    }
  }
  return false;
}

function showIfPasses(showIf: ShowIf | undefined, values: FormValues): boolean {
  if (!showIf) return true;
  if (typeof showIf === 'function') return showIf(values);
  const value = values[showIf.field];
  return 'in' in showIf ? showIf.in.includes(value) : value === showIf.equals;
}

/**
 * Whether the form shows the field: its condition holds and, for selects, it has options
 * (SPEC §5 "select fields with no options render nothing"). Options left undefined mean
 * "loaded elsewhere" (makes, models) and do not hide the field.
 */
export function isFieldShown(rule: FieldRule, values: FormValues): boolean {
  if (!showIfPasses(rule.showIf, values)) return false;
  if (selectTypes.has(rule.type) && rule.options !== undefined && rule.options.length === 0) return false;
  return true;
}

/** SPEC §5: required by default; `optional` relaxes it; a custom `required` rule overrides both. */
export function isFieldRequired(rule: FieldRule, values: FormValues): boolean {
  if (rule.required) return rule.required(values);
  return rule.optional !== true;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

/** A name part: required check (when asked) then letters and spaces only. */
function checkName(value: unknown, required: boolean): string | null {
  if (isEmptyValue(value)) return required ? formMessages.required : null;
  return namePattern.test(text(value)) ? null : formMessages.alphabetical;
}

/** The format check of one shown, non-empty value. */
function formatError(rule: FieldRule, value: unknown, ctx: ValidationContext): string | null {
  if (nameFields.has(rule.name)) return checkName(value, false);
  switch (rule.type) {
    case 'email':
      return emailPattern.test(text(value)) ? null : formMessages.invalidEmail;
    case 'postcode':
      return ctx.locale === 'en-US'
        ? zipPattern.test(text(value))
          ? null
          : postcodeMessages.invalidZip
        : postcodePattern.test(text(value))
          ? null
          : postcodeMessages.invalid;
    case 'phone':
      return validatePhone(text(value), ctx.phoneRule);
    default:
      return null;
  }
}

/**
 * SPEC §5 field validation, shared by the form (on submit) and the API. Returns a message per
 * failing value key; an empty object means valid. Order per field: hidden fields are skipped,
 * then the required check ('*This is a required field.'), then the format rule of the type
 * (email, names, postcode, phone), then the field's own `validate`. An optional field left
 * empty is valid, but if filled in it must still be well formed.
 *
 * fullName reports under three keys: the field's name (first name, required as the field is),
 * middle_name (always optional) and last_name (required as the field is). Stand-alone fields
 * named first_name, middle_name or last_name get the same letters-and-spaces rule, and
 * middle_name is optional unless a custom required rule says otherwise.
 */
export function validateFields(rules: readonly FieldRule[], values: FormValues, ctx: ValidationContext): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const rule of rules) {
    if (inertTypes.has(rule.type) || !isFieldShown(rule, values)) continue;
    const required = rule.name === middleNameField && !rule.required ? false : isFieldRequired(rule, values);

    if (rule.type === 'fullName') {
      const parts: [string, boolean][] = [
        [rule.name, required],
        [middleNameField, false],
        [lastNameField, required],
      ];
      for (const [key, partRequired] of parts) {
        const error = checkName(values[key], partRequired);
        if (error) errors[key] = error;
      }
      continue;
    }

    const value = values[rule.name];
    if (isEmptyValue(value, rule.type)) {
      if (required) errors[rule.name] = formMessages.required;
      continue;
    }
    const error = formatError(rule, value, ctx) ?? rule.validate?.(value, values) ?? null;
    if (error) errors[rule.name] = error;
  }
  return errors;
}

/** The form's starting values: each rule's defaultValue, where it has one. */
export function initialValues(rules: readonly FieldRule[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const rule of rules) if (rule.defaultValue !== undefined) values[rule.name] = rule.defaultValue;
  return values;
}

/**
 * SPEC §5: one brand strips ' - Service' from option labels ('Servco Toyota - Service' →
 * 'Servco Toyota'). Only a trailing suffix is removed, so a name that merely contains the
 * words keeps them.
 */
export function stripServiceSuffix(label: string): string {
  return label.replace(/ - Service\s*$/, '');
}

/** The text an option shows: label, else name (location selects), else the value. */
export function optionLabel(option: SelectOption, opts: { stripService?: boolean } = {}): string {
  const label = option.label ?? option.name ?? String(option.value);
  return opts.stripService ? stripServiceSuffix(label) : label;
}

export type EnquiryFormSite = {
  locale: SiteLocale;
  features: { show_postcode: boolean };
  lead_settings?: LeadSettings | null;
};

export type EnquiryFormOptions = {
  /** The configured enquiry categories. Omitted: no select, the category is sent as General Enquiry. */
  categories?: readonly string[];
  /** Location select options (value = location id); omitted: not shown. */
  locations?: readonly SelectOption[];
  /** Preferred dealership select options (value = dealership slug); omitted: not shown. */
  dealerships?: readonly SelectOption[];
  /** The dealer opted out of requiring the message (Comments). */
  messageOptional?: boolean;
  /** Show the optional Rego input. */
  rego?: boolean;
  /** Show the optional test drive date/time. */
  testDrive?: boolean;
};

/**
 * SPEC §5 enquiry form. Name (full name), phone and email are required; postcode appears
 * where the site's show_postcode is on; the message is required unless the dealer opts out;
 * the category select defaults to General Enquiry and, like the location and preferred
 * dealership selects, is required when shown (an empty option list hides it). opt_in is
 * optional and starts ticked unless lead_settings.opt_in_default is false (Spam Act consent
 * sites); its label is the site's consent wording when it has one. Rego and the test drive
 * date/time are optional.
 */
export function enquiryFormRules(site: EnquiryFormSite, opts: EnquiryFormOptions = {}): FieldRule[] {
  const settings = site.lead_settings ?? {};
  const rules: FieldRule[] = [];
  rules.push(
    opts.categories
      ? {
          name: 'category',
          type: 'select',
          label: 'Enquiry Type',
          options: opts.categories.map((category) => ({ value: category, label: category })),
          defaultValue: defaultEnquiryCategory,
        }
      : // Without a configured list there is nothing to choose, but the lead still needs a category.
        { name: 'category', type: 'hidden', defaultValue: defaultEnquiryCategory },
  );
  if (opts.locations) rules.push({ name: 'location', type: 'locationSelect', label: 'Location', options: opts.locations });
  if (opts.dealerships) {
    rules.push({ name: 'dealership_slug', type: 'select', label: 'Preferred Dealership', options: opts.dealerships });
  }
  rules.push(
    { name: 'name', type: 'fullName', label: 'Name' },
    { name: 'phone', type: 'phone', label: 'Mobile Number' },
    { name: 'email', type: 'email', label: 'Email Address' },
  );
  if (site.features.show_postcode) {
    rules.push({ name: 'postcode', type: 'postcode', label: site.locale === 'en-US' ? 'ZIP Code' : 'Postcode' });
  }
  if (opts.rego) rules.push({ name: 'Rego', type: 'rego', label: 'Rego', optional: true });
  if (opts.testDrive) rules.push({ name: 'dateTime', type: 'dateTime', label: 'Preferred Date & Time', optional: true });
  rules.push({ name: 'message', type: 'textarea', label: 'Comments', optional: opts.messageOptional === true });
  rules.push({
    name: 'opt_in',
    type: 'optIn',
    label: settings.consent_wording ?? 'Keep me updated with news and special offers',
    optional: true,
    defaultValue: settings.opt_in_default ?? true,
  });
  return rules;
}
