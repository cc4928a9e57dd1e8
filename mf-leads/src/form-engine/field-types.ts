import type { ReactNode } from 'react';
import type { FieldRule } from '@dealer/rules/lead-validation';
import type { BookingKind } from '@dealer/rules/booking-locations';

export type FieldValues = Record<string, unknown>;

/**
 * One field of a form declared as data: the validation rule (shared with the server) plus what
 * the browser needs to draw it.
 */
export type FieldDef = FieldRule & {
  label: string;
  placeholder?: string;
  help?: string;
  /** For 'custom': the component renders the field itself. */
  render?: (props: { name: string; label: string }) => ReactNode;
  /** For 'button': the step a skip-to action jumps to (SPEC §4). */
  skipTo?: number;
  accept?: string;
  multiple?: boolean;
  /** For 'dateTime': offer the location's free test drive or service times instead of any time (SPEC §7). */
  bookingKind?: BookingKind;
};

export type StepDef = { heading: string; fields: FieldDef[] };

export type FormDef = {
  id: string;
  title: string;
  category: string;
  subcategory?: string;
  steps: StepDef[];
  /** A custom conversion event id for the final submit (default 22). */
  conversionEventId?: number;
  /**
   * Whether earlier steps are saved as an Incomplete lead (SPEC §4). Off for forms that send files:
   * files travel with the create, so the lead is created once, at the end.
   */
  partialSave?: boolean;
};
