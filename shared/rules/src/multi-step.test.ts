import { describe, expect, it } from 'vitest';
import {
  backTarget,
  canGoBack,
  canGoNext,
  finalSubmitLead,
  initialMultiStepState,
  isMultiStep,
  multiStepReducer,
  multiStepTransition,
  partialSavePlan,
  progress,
  saveErrorDisplay,
  stepOfText,
  type MultiStepAction,
  type MultiStepState,
} from './multi-step';

const state = (overrides: Partial<MultiStepState> = {}): MultiStepState => ({
  ...initialMultiStepState(4),
  ...overrides,
});

/** Runs actions from a state, collecting the step-tracking labels sent. */
const run = (start: MultiStepState, actions: MultiStepAction[]) => {
  let current = start;
  const events: string[] = [];
  for (const action of actions) {
    const { state: next, event } = multiStepTransition(current, action);
    if (event) events.push(`${event.eventId}:${event.label}`);
    current = next;
  }
  return { state: current, events };
};

describe('initial state', () => {
  it.each([
    [4, undefined, 0],
    [4, 2, 2],
    [4, 9, 3],
    [4, -1, 0],
    [1, undefined, 0],
  ])('%d steps, start %j → step %d', (count, start, expected) => {
    const s = initialMultiStepState(count, start);
    expect(s).toEqual({ stepIndex: expected, stepCount: count, skips: [], savedSteps: [], error: null, complete: false });
  });

  it.each([
    [0, false],
    [1, false],
    [2, true],
    [5, true],
  ])('isMultiStep(%d) → %s', (count, expected) => {
    expect(isMultiStep(count)).toBe(expected);
  });
});

describe('next', () => {
  it.each<[string, MultiStepState, Partial<MultiStepState>, string[]]>([
    ['moves forward and sends step tracking', state(), { stepIndex: 1 }, ['32:Book a Test Drive - Step 1']],
    ['clears the error', state({ stepIndex: 1, error: 'Oops' }), { stepIndex: 2, error: null }, ['32:Book a Test Drive - Step 2']],
    ['not from the last step', state({ stepIndex: 3 }), { stepIndex: 3 }, []],
    [
      'drops a skip starting at the current step',
      state({ stepIndex: 1, skips: [{ from: 1, to: 3 }] }),
      { stepIndex: 2, skips: [] },
      ['32:Book a Test Drive - Step 2'],
    ],
    [
      'drops a skip spanning the current step',
      state({ stepIndex: 1, skips: [{ from: 0, to: 3 }] }),
      { stepIndex: 2, skips: [] },
      ['32:Book a Test Drive - Step 2'],
    ],
    [
      'keeps a skip ending at the current step',
      state({ stepIndex: 2, skips: [{ from: 0, to: 2 }] }),
      { stepIndex: 3, skips: [{ from: 0, to: 2 }] },
      ['32:Book a Test Drive - Step 3'],
    ],
    [
      'keeps a skip ahead of the current step',
      state({ stepIndex: 0, skips: [{ from: 1, to: 3 }] }),
      { stepIndex: 1, skips: [{ from: 1, to: 3 }] },
      ['32:Book a Test Drive - Step 1'],
    ],
  ])('%s', (_name, start, expected, events) => {
    const result = run(start, [{ type: 'next', label: 'Book a Test Drive' }]);
    expect(result.state).toMatchObject(expected);
    expect(result.events).toEqual(events);
  });

  it('sends no tracking event without a label', () => {
    expect(multiStepTransition(state(), { type: 'next' }).event).toBeNull();
  });

  it('a refused move returns the same state object', () => {
    const last = state({ stepIndex: 3 });
    expect(multiStepTransition(last, { type: 'next', label: 'x' }).state).toBe(last);
  });
});

describe('back', () => {
  it.each<[string, MultiStepState, number]>([
    ['to the previous step', state({ stepIndex: 2 }), 1],
    ['to the origin of a skip to this step', state({ stepIndex: 3, skips: [{ from: 0, to: 3 }] }), 0],
    [
      'the latest skip to this step wins',
      state({
        stepIndex: 3,
        skips: [
          { from: 0, to: 3 },
          { from: 1, to: 3 },
        ],
      }),
      1,
    ],
    ['skips to other steps are ignored', state({ stepIndex: 2, skips: [{ from: 0, to: 3 }] }), 1],
    ['unavailable on the first step', state({ stepIndex: 0 }), 0],
  ])('%s', (_name, start, expected) => {
    expect(multiStepReducer(start, { type: 'back' }).stepIndex).toBe(expected);
  });

  it('backTarget names where Back leads', () => {
    expect(backTarget(state({ stepIndex: 3, skips: [{ from: 1, to: 3 }] }))).toBe(1);
    expect(backTarget(state({ stepIndex: 2 }))).toBe(1);
  });

  it('clears the error of the step left', () => {
    expect(multiStepReducer(state({ stepIndex: 2, error: 'Oops' }), { type: 'back' }).error).toBeNull();
  });

  it.each([
    [0, false, true],
    [1, true, true],
    [3, true, false],
  ])('on step %d: back %s, next %s', (stepIndex, back, next) => {
    expect(canGoBack(state({ stepIndex }))).toBe(back);
    expect(canGoNext(state({ stepIndex }))).toBe(next);
  });
});

describe('skipTo', () => {
  it.each<[string, MultiStepState, number, Partial<MultiStepState>]>([
    ['records the pair and jumps', state({ stepIndex: 1 }), 3, { stepIndex: 3, skips: [{ from: 1, to: 3 }] }],
    [
      'keeps earlier skips',
      state({ stepIndex: 2, skips: [{ from: 0, to: 2 }] }),
      3,
      {
        stepIndex: 3,
        skips: [
          { from: 0, to: 2 },
          { from: 2, to: 3 },
        ],
      },
    ],
    [
      'the same jump again is one record',
      state({ stepIndex: 1, skips: [{ from: 1, to: 3 }] }),
      3,
      { stepIndex: 3, skips: [{ from: 1, to: 3 }] },
    ],
    ['clears the error', state({ stepIndex: 0, error: 'Oops' }), 2, { stepIndex: 2, error: null }],
    ['not backwards', state({ stepIndex: 2 }), 1, { stepIndex: 2, skips: [] }],
    ['not to the current step', state({ stepIndex: 2 }), 2, { stepIndex: 2, skips: [] }],
    ['not past the last step', state({ stepIndex: 1 }), 4, { stepIndex: 1, skips: [] }],
    ['not to a fraction', state({ stepIndex: 1 }), 2.5, { stepIndex: 1, skips: [] }],
  ])('%s', (_name, start, target, expected) => {
    const result = multiStepTransition(start, { type: 'skipTo', target });
    expect(result.state).toMatchObject(expected);
    expect(result.event).toBeNull();
  });
});

describe('fix: back to the step whose answer was refused', () => {
  it.each<[string, MultiStepState, number, Partial<MultiStepState>]>([
    [
      'goes back and keeps the message',
      state({ stepIndex: 3, error: 'That time has just been booked. Please choose another time.' }),
      2,
      { stepIndex: 2, error: 'That time has just been booked. Please choose another time.' },
    ],
    ['not forwards', state({ stepIndex: 1 }), 2, { stepIndex: 1 }],
    ['not to the current step', state({ stepIndex: 2 }), 2, { stepIndex: 2 }],
    ['not before the first step', state({ stepIndex: 2 }), -1, { stepIndex: 2 }],
    ['not once complete', state({ stepIndex: 3, complete: true }), 1, { stepIndex: 3 }],
  ])('%s', (_name, start, target, expected) => {
    const result = multiStepTransition(start, { type: 'fix', target });
    expect(result.state).toMatchObject(expected);
    expect(result.event).toBeNull();
  });
});

describe('a walk through a test drive form with a skip and back', () => {
  it('skip 0→2, back to 0, walk forward: back now retraces the walked steps', () => {
    const label = 'Book a Test Drive';
    const { state: s, events } = run(initialMultiStepState(4), [
      { type: 'skipTo', target: 2 },
      { type: 'back' },
      { type: 'next', label },
      { type: 'next', label },
      { type: 'back' },
    ]);
    expect(s).toMatchObject({ stepIndex: 1, skips: [] });
    expect(events).toEqual(['32:Book a Test Drive - Step 1', '32:Book a Test Drive - Step 2']);
  });

  it('skip 1→3 then back returns to 1, and forward from a skip target keeps it', () => {
    const afterSkip = run(initialMultiStepState(5, 1), [
      { type: 'skipTo', target: 3 },
      { type: 'next', label: 'Photos' },
    ]).state;
    expect(afterSkip).toMatchObject({ stepIndex: 4, skips: [{ from: 1, to: 3 }] });
    const backTwice = run(afterSkip, [{ type: 'back' }, { type: 'back' }]).state;
    expect(backTwice.stepIndex).toBe(1);
  });
});

describe('progress', () => {
  it.each<[Partial<MultiStepState>, number]>([
    [{ stepIndex: 0, stepCount: 4 }, 0],
    [{ stepIndex: 1, stepCount: 4 }, 25],
    [{ stepIndex: 3, stepCount: 4 }, 75],
    [{ stepIndex: 1, stepCount: 3 }, 100 / 3],
    [{ stepIndex: 3, stepCount: 4, complete: true }, 100],
    [{ stepIndex: 0, stepCount: 1, complete: true }, 100],
  ])('%j → %d', (overrides, expected) => {
    expect(progress(state(overrides))).toBeCloseTo(expected, 10);
  });

  it.each<[Partial<MultiStepState>, string]>([
    [{ stepIndex: 0, stepCount: 3 }, 'Step 1 of 3'],
    [{ stepIndex: 2, stepCount: 3 }, 'Step 3 of 3'],
  ])('%j → %s', (overrides, expected) => {
    expect(stepOfText(state(overrides))).toBe(expected);
  });

  it('complete marks the form done and clears the error', () => {
    expect(multiStepReducer(state({ stepIndex: 3, error: 'x' }), { type: 'complete' })).toMatchObject({ complete: true, error: null });
  });
});

describe('partial save', () => {
  const values = { name: 'Sam', last_name: 'Citizen', phone: '0412345678', email: 'sam@example.com.au', category: 'General Enquiry' };

  it.each<[string, Partial<MultiStepState>, unknown]>([
    [
      'first save creates an Incomplete lead',
      { stepIndex: 0 },
      { kind: 'save', lead: { ...values, lead_status: 'Incomplete', form_completed: false } },
    ],
    [
      'later saves carry the lead id',
      { stepIndex: 1, savedSteps: [0], leadId: 812 },
      { kind: 'save', lead: { ...values, lead_status: 'Incomplete', form_completed: false, lead_id: 812 } },
    ],
    [
      'skips add skipped_steps and step_number',
      { stepIndex: 2, savedSteps: [0], leadId: 812, skips: [{ from: 0, to: 2 }] },
      {
        kind: 'save',
        lead: {
          ...values,
          lead_status: 'Incomplete',
          form_completed: false,
          lead_id: 812,
          skipped_steps: [{ from: 0, to: 2 }],
          step_number: 2,
        },
      },
    ],
    ['a saved step just advances', { stepIndex: 1, savedSteps: [0, 1], leadId: 812 }, { kind: 'advance' }],
  ])('%s', (_name, overrides, expected) => {
    expect(partialSavePlan(state(overrides), values)).toEqual(expected);
  });

  it('success: markSaved stores the id and marks the step, then next advances', () => {
    const saved = multiStepReducer(state({ stepIndex: 0, error: 'old' }), { type: 'markSaved', leadId: 812 });
    expect(saved).toMatchObject({ stepIndex: 0, savedSteps: [0], leadId: 812, error: null });
    expect(multiStepReducer(saved, { type: 'next' }).stepIndex).toBe(1);
    expect(partialSavePlan(saved, values)).toEqual({ kind: 'advance' });
  });

  it('markSaved without an id keeps the known one, and marks a step once', () => {
    const saved = multiStepReducer(state({ stepIndex: 1, savedSteps: [0, 1], leadId: 812 }), { type: 'markSaved' });
    expect(saved).toMatchObject({ savedSteps: [0, 1], leadId: 812 });
  });

  it('error: setError shows the message and the form stays on the step', () => {
    const failed = multiStepReducer(state({ stepIndex: 1 }), { type: 'setError', error: 'Email is blocked' });
    expect(failed).toMatchObject({ stepIndex: 1, error: 'Email is blocked', savedSteps: [] });
  });

  it('does not change the values passed in', () => {
    const input = { ...values };
    partialSavePlan(state({ leadId: 1, skips: [{ from: 0, to: 2 }] }), input);
    expect(input).toEqual(values);
  });
});

describe('final submit', () => {
  it.each<[string, Partial<MultiStepState>, Record<string, unknown>]>([
    ['single save', {}, { name: 'Sam', form_completed: true }],
    ['updates the partially saved lead', { leadId: 812, stepIndex: 3 }, { name: 'Sam', form_completed: true, lead_id: 812 }],
    [
      'keeps the skip record',
      { leadId: 812, stepIndex: 3, skips: [{ from: 1, to: 3 }] },
      { name: 'Sam', form_completed: true, lead_id: 812, skipped_steps: [{ from: 1, to: 3 }], step_number: 3 },
    ],
  ])('%s', (_name, overrides, expected) => {
    expect(finalSubmitLead({ name: 'Sam' }, state(overrides))).toEqual(expected);
  });

  it('drops an Incomplete status carried in the values', () => {
    expect(finalSubmitLead({ name: 'Sam', lead_status: 'Incomplete' }, state({ leadId: 5 }))).toEqual({
      name: 'Sam',
      form_completed: true,
      lead_id: 5,
    });
  });
});

describe('save error display (SPEC §8)', () => {
  it.each<[string | null | undefined, string, { text: string; tone: string }]>([
    ['Phone number is blocked', 'Vehicle Details', { text: 'Phone number is blocked', tone: 'destructive' }],
    [null, 'Choose a Time', { text: 'An unexpected error occured', tone: 'destructive' }],
    [undefined, 'Choose a Time', { text: 'An unexpected error occured', tone: 'destructive' }],
    ['', 'Choose a Time', { text: 'An unexpected error occured', tone: 'destructive' }],
    ['We already have your details', 'User Details', { text: 'We already have your details', tone: 'success' }],
    [null, 'User Details', { text: 'An unexpected error occured', tone: 'success' }],
    ['x', 'user details', { text: 'x', tone: 'destructive' }],
  ])('%j on %j → %j', (message, heading, expected) => {
    expect(saveErrorDisplay(message, heading)).toEqual(expected);
  });
});
