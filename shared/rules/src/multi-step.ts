import { eventIds, stepTrackingLabel } from './enquiry';

/** A jump recorded by skipTo, as 0-based step indexes. */
export type StepSkip = { from: number; to: number };

export type MultiStepState = {
  /** 0-based index of the step on screen. */
  stepIndex: number;
  stepCount: number;
  /** Jumps taken with skipTo, oldest first; Back follows them in reverse. */
  skips: StepSkip[];
  /** Steps whose partial save succeeded; saving them again just advances (SPEC §4). */
  savedSteps: number[];
  /** The lead id returned by the first save; later saves and the final submit update it. */
  leadId?: number;
  /** The save error shown above the buttons. */
  error: string | null;
  /** Set after a successful final submit; progress then reads 100. */
  complete: boolean;
};

export type MultiStepAction =
  /** Forward one step. `label` names the form in the step-tracking event. */
  | { type: 'next'; label?: string }
  | { type: 'back' }
  /** Jump forward to a later step, remembering where from so Back returns there. */
  | { type: 'skipTo'; target: number }
  /** Back to an earlier step whose answer the server refused (a booked time gone), keeping the error. */
  | { type: 'fix'; target: number }
  /** The current step's partial save succeeded; store the returned id. Dispatch next after it. */
  | { type: 'markSaved'; leadId?: number }
  | { type: 'setError'; error: string | null }
  | { type: 'complete' };

/** SPEC §9 event 32, sent when the shopper moves forward. */
export type StepTrackingEvent = { eventId: typeof eventIds.stepTracking; label: string };

export type MultiStepTransition = { state: MultiStepState; event: StepTrackingEvent | null };

/** SPEC §4: step 0 unless the form names a start step (clamped into the form). */
export function initialMultiStepState(stepCount: number, startStep = 0): MultiStepState {
  const count = Math.max(1, Math.floor(stepCount));
  const stepIndex = Math.min(Math.max(0, Math.floor(startStep)), count - 1);
  return { stepIndex, stepCount: count, skips: [], savedSteps: [], error: null, complete: false };
}

/** SPEC §4: a form is multi-step only when it has more than one step. */
export function isMultiStep(stepCount: number): boolean {
  return stepCount > 1;
}

/** SPEC §4: Next is allowed only while not on the last step. */
export function canGoNext(state: MultiStepState): boolean {
  return state.stepIndex < state.stepCount - 1;
}

/** SPEC §4: Back is unavailable on the first step. */
export function canGoBack(state: MultiStepState): boolean {
  return state.stepIndex > 0;
}

/** Where Back leads: the origin of the latest skip to this step, otherwise the previous step. */
export function backTarget(state: MultiStepState): number {
  const skip = state.skips.findLast((entry) => entry.to === state.stepIndex);
  return skip ? skip.from : state.stepIndex - 1;
}

/**
 * SPEC §4 multi-step transitions, pure. Returns the next state and, for a move forward, the
 * step-tracking event to send (id 32, label '{label} - Step {n}' where n is the 1-based step
 * just completed). Actions that are not allowed return the same state object.
 *
 * - next: only before the last step. Clears the error and drops every skip spanning the step
 *   being left (from ≤ current < to): once the shopper walks forward from there, Back from
 *   a later step must retrace the steps walked, not the old jump.
 * - back: to the origin of a skip to this step, else the previous step; never from step 0.
 * - skipTo: only to a later step inside the form; records {from, to} and jumps.
 * - markSaved: records the current step as saved and stores the lead id; does not move.
 * - setError: shows (or clears, with null) the save error; does not move.
 * - complete: marks the form done (progress 100) and clears the error.
 *
 * back and skipTo also clear the error: it belongs to the step being left.
 */
export function multiStepTransition(state: MultiStepState, action: MultiStepAction): MultiStepTransition {
  const same: MultiStepTransition = { state, event: null };
  switch (action.type) {
    case 'next': {
      if (!canGoNext(state)) return same;
      const current = state.stepIndex;
      const event: StepTrackingEvent | null =
        action.label === undefined ? null : { eventId: eventIds.stepTracking, label: stepTrackingLabel(action.label, current + 1) };
      return {
        state: {
          ...state,
          stepIndex: current + 1,
          error: null,
          skips: state.skips.filter((skip) => !(skip.from <= current && current < skip.to)),
        },
        event,
      };
    }
    case 'back':
      if (!canGoBack(state)) return same;
      return { state: { ...state, stepIndex: backTarget(state), error: null }, event: null };
    case 'fix':
      if (!Number.isInteger(action.target) || action.target < 0 || action.target >= state.stepIndex || state.complete) return same;
      return { state: { ...state, stepIndex: action.target }, event: null };
    case 'skipTo': {
      const { target } = action;
      if (!Number.isInteger(target) || target <= state.stepIndex || target >= state.stepCount) return same;
      const skip = { from: state.stepIndex, to: target };
      // The same jump taken again (after Back) is one record, not two.
      const skips = state.skips.filter((entry) => !(entry.from === skip.from && entry.to === skip.to));
      return { state: { ...state, stepIndex: target, error: null, skips: [...skips, skip] }, event: null };
    }
    case 'markSaved': {
      const savedSteps = state.savedSteps.includes(state.stepIndex) ? state.savedSteps : [...state.savedSteps, state.stepIndex];
      const leadId = action.leadId ?? state.leadId;
      return { state: { ...state, savedSteps, error: null, ...(leadId !== undefined ? { leadId } : {}) }, event: null };
    }
    case 'setError':
      return { state: { ...state, error: action.error }, event: null };
    case 'complete':
      return { state: { ...state, complete: true, error: null }, event: null };
  }
}

/** The same transitions as a React useReducer reducer; send the event from multiStepTransition yourself. */
export function multiStepReducer(state: MultiStepState, action: MultiStepAction): MultiStepState {
  return multiStepTransition(state, action).state;
}

/** SPEC §4 progress: step index / step count as a percentage (not rounded), 100 once complete. */
export function progress(state: MultiStepState): number {
  if (state.complete) return 100;
  return (state.stepIndex / state.stepCount) * 100;
}

/** The card's 'Step X of Y' text (SPEC §2). */
export function stepOfText(state: MultiStepState): string {
  return `Step ${state.stepIndex + 1} of ${state.stepCount}`;
}

/** Fields SPEC §4 adds to a partial save. skipped_steps and step_number come only with skips. */
export type PartialLead<V> = V & {
  lead_status: 'Incomplete';
  form_completed: false;
  lead_id?: number;
  skipped_steps?: StepSkip[];
  step_number?: number;
};

export type PartialSavePlan<V> = { kind: 'advance' } | { kind: 'save'; lead: PartialLead<V> };

/** skipped_steps and step_number (the 0-based index of the current step, like the skip pairs). */
function skipFields(state: MultiStepState): { skipped_steps?: StepSkip[]; step_number?: number } {
  return state.skips.length > 0 ? { skipped_steps: state.skips.map((skip) => ({ ...skip })), step_number: state.stepIndex } : {};
}

/**
 * SPEC §4 partial save when Continue is pressed on a step before the last. A step already
 * saved just advances (dispatch next). Otherwise send `lead` (create without lead_id, update
 * with it); on success dispatch markSaved with the returned id and then next; on error
 * dispatch setError with the message and stay on the step.
 */
export function partialSavePlan<V extends Record<string, unknown>>(state: MultiStepState, values: V): PartialSavePlan<V> {
  if (state.savedSteps.includes(state.stepIndex)) return { kind: 'advance' };
  return {
    kind: 'save',
    lead: {
      ...values,
      lead_status: 'Incomplete',
      form_completed: false,
      ...(state.leadId !== undefined ? { lead_id: state.leadId } : {}),
      ...skipFields(state),
    },
  };
}

export type FinalLead<V> = Omit<V, 'lead_status'> & {
  form_completed: true;
  lead_id?: number;
  skipped_steps?: StepSkip[];
  step_number?: number;
};

/**
 * SPEC §4 final submit: the values sent as the last step, updating the partially saved lead
 * when there is one. form_completed is true so the server can tell a finished lead from an
 * Incomplete one it already holds; any lead_status a partial save used is dropped.
 * On success: dispatch complete, fire the conversion event (enquiry.ts conversionEventId), go to the success page.
 */
export function finalSubmitLead<V extends Record<string, unknown>>(values: V, state: MultiStepState): FinalLead<V> {
  const { lead_status: _dropped, ...rest } = values;
  void _dropped;
  return {
    ...rest,
    form_completed: true,
    ...(state.leadId !== undefined ? { lead_id: state.leadId } : {}),
    ...skipFields(state),
  };
}

/** SPEC §8 text when a save fails without a message (SPEC's spelling, kept word for word). */
export const unexpectedSaveError = 'An unexpected error occured';

export type SaveErrorDisplay = { text: string; tone: 'success' | 'destructive' };

/**
 * SPEC §8: the save error shown above the buttons. It is destructive (red) except on the
 * 'User Details' step, which uses the success style.
 */
export function saveErrorDisplay(message: string | null | undefined, stepHeading: string): SaveErrorDisplay {
  return {
    text: message || unexpectedSaveError,
    tone: stepHeading === 'User Details' ? 'success' : 'destructive',
  };
}
