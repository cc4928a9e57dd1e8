// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formMessages } from '@dealer/contracts/lead-values';
import { testSite } from '@dealer/contracts/testing/test-site';
import { phoneMessages } from '@dealer/rules/phone';
import { createPlatformStore } from '@dealer/state/store';
import { LeadForm } from './lead-form';
import { contactForm, financeForm, testDriveForm } from './form-definitions';
import type { FormDef } from './field-types';

const required = formMessages.required;

const site = testSite();

type LeadCall = { url: string; method: string; headers: Record<string, string>; lead: Record<string, unknown> };

/** The lead API: answers each save with the next of `answers` and records what the browser sent. */
function stubLeadApi(...answers: { status: number; body: unknown }[]) {
  const calls: LeadCall[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as { lead: Record<string, unknown> };
    calls.push({ url, method: String(init.method), headers: init.headers as Record<string, string>, lead: body.lead });
    const answer = answers.shift() ?? { status: 500, body: {} };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, calls };
}

function SuccessPage() {
  const { pathname, search } = useLocation();
  return <p>{`Thank you page ${pathname}${search}`}</p>;
}

/** The form as the app mounts it: in the platform store and the router, on a page the success route follows. */
function renderForm(def: FormDef, onSubmitted?: (leadId: number) => void) {
  return render(
    <Provider store={createPlatformStore(site)}>
      <MemoryRouter initialEntries={['/contact']}>
        <Routes>
          <Route path="/contact" element={<LeadForm def={def} onSubmitted={onSubmitted} />} />
          <Route path="/success" element={<SuccessPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

const field = (label: string | RegExp) => screen.getByLabelText<HTMLInputElement>(label);
const type = (label: string | RegExp, value: string) => fireEvent.change(field(label), { target: { value } });
const press = async (name: string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};

/** The message shown with an input: the element it is described by, or the alert in its own label (name parts). */
function messageFor(input: HTMLElement): string | null {
  const describedBy = input.getAttribute('aria-describedby');
  // Every field names its error through aria-describedby (the name parts included).
  return describedBy ? (document.getElementById(describedBy)?.textContent ?? null) : null;
}

function fillDetails() {
  type('First name', 'Sam');
  type('Last name', 'Citizen');
  type('Email', 'sam.citizen@example.com.au');
  type('Phone', '0412 345 678');
}

beforeEach(() => {
  vi.stubGlobal('__REMOTE_VERSION__', '1.5.1-test');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

describe('contact form', () => {
  it('submitted empty, shows the required-field message by each missing field and sends nothing', async () => {
    const { fetch } = stubLeadApi();
    renderForm(contactForm(site));

    await press('Submit');

    for (const label of ['First name', 'Last name', 'Email', 'Phone', 'Comments']) {
      expect(messageFor(field(label)), String(label)).toBe(required);
    }
    // Optional fields, and the enquiry type that starts as General Enquiry, are not flagged.
    expect(messageFor(field(/^Middle name/))).toBeNull();
    expect(messageFor(field('Enquiry type'))).toBeNull();
    expect((field('Enquiry type') as unknown as HTMLSelectElement).value).toBe('General Enquiry');
    expect(screen.getAllByRole('alert')).toHaveLength(5);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses a malformed e-mail and a non-Australian phone with the rule’s message, keeping what the shopper typed', async () => {
    const { fetch } = stubLeadApi();
    renderForm(contactForm(site));
    fillDetails();
    type('Email', 'sam.citizen@example');
    type('Phone', '555 0123');
    type('Comments', 'Is the HiLux still available?');

    await press('Submit');

    expect(messageFor(field('Email'))).toBe('invalid email address');
    expect(messageFor(field('Phone'))).toBe(phoneMessages.au);
    expect(phoneMessages.au).toBe('Invalid phone number. Must be an Australian number.');
    expect(field('Email').value).toBe('sam.citizen@example');
    expect(field('Phone').value).toBe('555 0123');
    expect(field('First name').value).toBe('Sam');
    expect(field('Comments').value).toBe('Is the HiLux still available?');
    expect(messageFor(field('First name'))).toBeNull();
    expect(messageFor(field('Comments'))).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends one enquiry with what the shopper typed, then hands over the lead id and shows the thank-you page', async () => {
    const { fetch, calls } = stubLeadApi({ status: 201, body: { id: 4321, update_token: 'tok-4321' } });
    const onSubmitted = vi.fn();
    renderForm(contactForm(site), onSubmitted);
    fireEvent.change(field('Enquiry type'), { target: { value: 'Service Enquiry' } });
    fillDetails();
    type('Comments', 'Can I book the car in for its 15,000 km service?');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Keep me updated with news and offers' }));

    await press('Submit');

    expect(await screen.findByText('Thank you page /success?category=service-enquiry')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [call] = calls;
    expect(call).toMatchObject({
      url: '/api/leads',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': expect.any(String) },
    });
    expect(call!.lead).toMatchObject({
      category: 'Service Enquiry',
      name: 'Sam',
      last_name: 'Citizen',
      email: 'sam.citizen@example.com.au',
      phone: '0412 345 678',
      message: 'Can I book the car in for its 15,000 km service?',
      opt_in: false,
      form_completed: true,
      form_started_at: expect.any(Number),
    });
    expect(call!.lead).not.toHaveProperty('lead_status');
    expect(call!.lead).not.toHaveProperty('lead_id');
    expect(onSubmitted).toHaveBeenCalledTimes(1);
    expect(onSubmitted).toHaveBeenCalledWith(4321);
  });

  it('keeps the shopper on the form with the server’s message when the enquiry is refused', async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    const { fetch } = stubLeadApi({
      status: 422,
      body: { message: 'Please check the highlighted fields', fields: { email: 'This address cannot receive mail' } },
    });
    const onSubmitted = vi.fn();
    renderForm(contactForm(site), onSubmitted);
    fillDetails();
    type('Comments', 'Is the HiLux still available?');

    await press('Submit');

    expect(await screen.findByText('Please check the highlighted fields')).toBeTruthy();
    expect(messageFor(field('Email'))).toBe('This address cannot receive mail');
    expect(field('Email').value).toBe('sam.citizen@example.com.au');
    expect(alert).toHaveBeenCalledWith('An error occurred when submitting this form');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(onSubmitted).not.toHaveBeenCalled();
    expect(screen.queryByText(/Thank you page/)).toBeNull();
  });
});

describe('finance application (two steps)', () => {
  it('checks the shopper’s details before the finance step shows, and saves them as an incomplete lead', async () => {
    const { fetch, calls } = stubLeadApi({ status: 201, body: { id: 9001, update_token: 'tok-9001' } });
    const { container } = renderForm(financeForm(site));
    expect(screen.getByRole('heading', { name: 'User Details' })).toBeTruthy();
    expect(screen.getByText('Step 1 of 2')).toBeTruthy();

    await press('Continue');

    for (const label of ['First name', 'Last name', 'Email', 'Phone']) {
      expect(messageFor(field(label)), String(label)).toBe(required);
    }
    expect(screen.queryByRole('heading', { name: 'Your finance' })).toBeNull();
    expect(fetch).not.toHaveBeenCalled();

    fillDetails();
    await press('Continue');

    expect(await screen.findByRole('heading', { name: 'Your finance' })).toBeTruthy();
    expect(screen.getByText('Step 2 of 2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(calls[0]).toMatchObject({ url: '/api/leads', method: 'POST' });
    expect(calls[0]!.lead).toMatchObject({
      category: 'Finance Enquiry',
      name: 'Sam',
      last_name: 'Citizen',
      email: 'sam.citizen@example.com.au',
      phone: '0412 345 678',
      lead_status: 'Incomplete',
      form_completed: false,
    });
    expect(container.querySelector('form')?.dataset.leadId).toBe('9001');
  });

  it('completes the same lead from the finance step, with the update token the first save returned', async () => {
    const { fetch, calls } = stubLeadApi(
      { status: 201, body: { id: 9001, update_token: 'tok-9001' } },
      { status: 200, body: { id: 9001 } },
    );
    const onSubmitted = vi.fn();
    renderForm(financeForm(site), onSubmitted);
    fillDetails();
    await press('Continue');
    await screen.findByRole('heading', { name: 'Your finance' });

    await press('Submit');
    expect(messageFor(field('Vehicle price or budget ($)'))).toBe(required);
    expect(within(screen.getByRole('group', { name: 'Employment' })).getByRole('alert').textContent).toBe(required);
    expect(fetch).toHaveBeenCalledTimes(1);

    type('Vehicle price or budget ($)', '35000');
    fireEvent.click(screen.getByRole('radio', { name: 'Full time' }));
    fireEvent.change(screen.getByLabelText('Preferred dealership'), { target: { value: 'metro-toyota-penrith' } });
    await press('Submit');

    expect(await screen.findByText('Thank you page /success?category=finance-enquiry')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(calls[1]).toMatchObject({ url: '/api/leads/9001', method: 'PUT', headers: { 'X-Lead-Update-Token': 'tok-9001' } });
    expect(calls[1]!.lead).toMatchObject({
      lead_id: 9001,
      category: 'Finance Enquiry',
      name: 'Sam',
      email: 'sam.citizen@example.com.au',
      vehiclePriceBudget: '35000',
      employment: 'Full time',
      preferredDealership: 'metro-toyota-penrith',
      form_completed: true,
    });
    expect(calls[1]!.lead).not.toHaveProperty('lead_status');
    expect(onSubmitted).toHaveBeenCalledWith(9001);
  });

  it('stays on the first step with the server’s message when the partial save fails', async () => {
    const { fetch } = stubLeadApi({ status: 503, body: { message: 'Leads are paused for maintenance' } });
    renderForm(financeForm(site));
    fillDetails();

    await press('Continue');

    expect(await screen.findByText('Leads are paused for maintenance')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'User Details' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Your finance' })).toBeNull();
    expect(field('Email').value).toBe('sam.citizen@example.com.au');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('test drive booking (four steps)', () => {
  it('asks for the free times while the shopper is on the step before, so the date step opens with them in place', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | Request) => {
        const url = typeof input === 'string' ? input : input.url;
        const json = (status: number, body: unknown) =>
          new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
        if (/\/api\/leads/.test(url)) return json(201, { id: 9101, update_token: 'tok-9101' });
        asked.push(url);
        return json(200, {
          dealership_id: 7,
          location_id: 101,
          location_name: 'Metro Toyota Parramatta',
          kind: 'appointment',
          time_zone: 'Australia/Sydney',
          slot_minutes: 30,
          days: [{ date: '2026-12-04', label: 'Fri 4 Dec', slots: [{ start: '2026-12-04T10:00:00+11:00', label: '10:00 am' }] }],
        });
      }),
    );
    renderForm(testDriveForm(site, { hasCar: true }));
    fillDetails();
    await press('Continue');
    await screen.findByRole('heading', { name: 'Your vehicle' });
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]).toMatch(/\/api\/dealerships\/\d+\/available_appointment_bookings\.json\?location_id=101$/);

    await press('Continue');
    expect(screen.getByRole('heading', { name: 'Date and time' })).toBeTruthy();
    expect(screen.queryByText('Loading available times…')).toBeNull();
    expect(screen.getByRole('radiogroup', { name: 'Times on Fri 4 Dec' })).toBeTruthy();
    expect(asked).toHaveLength(1);
  });
});
