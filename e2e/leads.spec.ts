import { expect, test } from '@playwright/test';
import { demoStock } from './support/demo-stock';
import { adminGet } from './support/platform';

type StoredLead = { id: number; lead_status: string; payload: Record<string, unknown> };
const leadsFor = async (email: string) => {
  const { body } = await adminGet('/api/admin/leads?site=metro-motor-group');
  return (body.leads as StoredLead[]).filter((lead) => lead.payload.email === email);
};

const car = demoStock().cars.find(
  (item) =>
    item.site === 'metro-motor-group' &&
    item.car_type === 'used' &&
    item.status === 'in_stock' &&
    !item.sold &&
    item.show_on_dealer_website &&
    !item.tag?.startsWith('Test Drive Only'),
)!;

test('a test drive walked through every step with a skip and back saves one lead, completed at the end', async ({ page }) => {
  const email = `testdrive.${Date.now()}@example.com`;
  const timesAsked = page.waitForRequest(/available_appointment_bookings\.json/);
  await page.goto(`/cars/${car.slug}`);
  await page.getByRole('button', { name: 'Book a test drive' }).click();
  const dialog = page.getByRole('dialog', { name: 'Book a Test Drive' });
  await expect(dialog.getByText('Step 1 of 4')).toBeVisible();

  // User Details: validated on Continue, then saved as an Incomplete lead.
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('*This is a required field.').first()).toBeVisible();
  await dialog.getByLabel('First name').fill('Casey');
  await dialog.getByLabel('Last name').fill('Driver');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Phone').fill('0412 345 678');
  await dialog.getByLabel('Postcode').fill('2150');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('Step 2 of 4')).toBeVisible();
  await expect.poll(async () => (await leadsFor(email)).map((lead) => lead.lead_status)).toEqual(['Incomplete']);

  // Skip the date step, then go back: back returns to where the skip started.
  await dialog.getByRole('button', { name: /skip/ }).click();
  await expect(dialog.getByText('Step 4 of 4')).toBeVisible();
  await dialog.getByRole('button', { name: 'Go Back' }).click();
  await expect(dialog.getByText('Step 2 of 4')).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('Step 3 of 4')).toBeVisible();
  // As a shopper sees it: the free times are asked for on step 2, so step 3 opens with them; a walk faster
  // than that answer still sees "Loading available times…" first, whose list then moves Go Back down.
  await expect(dialog.getByRole('radiogroup', { name: /^Times on / })).toBeVisible();
  await dialog.getByRole('button', { name: 'Go Back' }).click();
  await expect(dialog.getByText('Step 2 of 4')).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  // The car's showroom offers its free times for this car (not while it is out on another test drive).
  expect((await timesAsked).url()).toContain(`location_id=${car.location_id}&car_id=${car.id}`);
  const picker = dialog.locator('[data-booking-kind="appointment"]');
  await picker.getByRole('radiogroup', { name: 'Day' }).locator('label').nth(1).click();
  const slot = picker
    .getByRole('radiogroup', { name: /^Times on / })
    .locator('label')
    .first();
  const slotLabel = (await slot.textContent())!.trim();
  await slot.click();
  await expect(picker.getByText(new RegExp(`at ${slotLabel}`))).toBeVisible();
  const start = await slot.locator('input').inputValue();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('Step 4 of 4')).toBeVisible();
  await dialog.getByLabel('Comments').fill('Saturday suits');
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { conversions: number[] }).conversions = seen;
    window.addEventListener('analytics:track', (event) => seen.push((event as CustomEvent<{ eventId: number }>).detail.eventId));
  });
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/success\?category=used-vehicle-enquiry$/);
  // SPEC §9: a used car's test drive converts as event 48.
  expect(await page.evaluate(() => (window as unknown as { conversions: number[] }).conversions)).toContain(48);

  const leads = await leadsFor(email);
  expect(leads).toHaveLength(1);
  expect(leads[0]!.lead_status).not.toBe('Incomplete');
  expect(leads[0]!.payload).toMatchObject({
    form_completed: true,
    car_id: car.id,
    subcategory: 'Test Drive',
    message: 'Saturday suits',
    dateTime: start,
    booking_location_id: car.location_id,
  });
  expect(String(leads[0]!.payload.booking_time)).toContain(slotLabel);
});

test('a service time taken while the shopper was typing: the form says so beside the times, and another time books', async ({ page }) => {
  const email = `service.${Date.now()}@example.com`;
  let alertText = '';
  page.on('dialog', async (dialog) => {
    alertText = dialog.message();
    await dialog.accept();
  });
  await page.goto('/service');
  await page.getByLabel('First name').fill('Sam');
  await page.getByLabel('Last name').fill('Spanner');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone').fill('0412 345 678');
  await page.getByLabel('Postcode').fill('2150');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Service centre').selectOption({ index: 1 });
  await page.getByLabel('Service', { exact: true }).selectOption('Logbook service');
  const picker = page.locator('[data-booking-kind="service"]');
  const slot = picker
    .getByRole('radiogroup', { name: /^Times on / })
    .locator('label')
    .first();
  const slotLabel = (await slot.textContent())!.trim();
  await slot.click();
  const start = await slot.locator('input').inputValue();
  const location = Number(await page.getByLabel('Service centre').inputValue());

  // Meanwhile other shoppers fill the workshop's three drop-offs at that time.
  const others = await page.evaluate(
    async ({ start, location }) => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch('/api/leads', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            lead: {
              category: 'Service Enquiry',
              name: 'Other',
              last_name: 'Shopper',
              email: `other${i}@example.com`,
              phone: `04123456${i}0`,
              postcode: '2000',
              location,
              serviceInterval: 'Minor service',
              dateTime: start,
            },
          }),
        });
        statuses.push(res.status);
      }
      return statuses;
    },
    { start, location },
  );
  expect(others).toEqual([201, 201, 201]);

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(picker.getByText('That time has just been booked. Please choose another time.')).toBeVisible();
  expect(alertText).toBe('An error occurred when submitting this form');
  // The times are asked again: the taken one is gone, the rest of the form is as typed.
  await expect(picker.getByRole('radio', { name: slotLabel, exact: true })).toHaveCount(0);
  await expect(page.getByLabel('Service', { exact: true })).toHaveValue('Logbook service');
  await picker
    .getByRole('radiogroup', { name: /^Times on / })
    .locator('label')
    .first()
    .click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/success\?category=service-enquiry$/);
  const leads = await leadsFor(email);
  expect(leads).toHaveLength(1);
  expect(leads[0]!.payload.dateTime).not.toBe(start);
  expect(leads[0]!.payload.booking_time).toEqual(expect.any(String));
});

test('a server error shows the alert and keeps everything the shopper typed', async ({ page }) => {
  await page.route('**/api/leads', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Our enquiry service is busy. Please try again.' }),
    }),
  );
  let alertText = '';
  page.on('dialog', async (dialog) => {
    alertText = dialog.message();
    await dialog.accept();
  });
  await page.goto('/contact');
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Last name').fill('Banks');
  await page.getByLabel('Email').fill('robin@example.com');
  await page.getByLabel('Phone').fill('0412 345 678');
  await page.getByLabel('Postcode').fill('2150');
  await page.getByLabel('Comments').fill('Please call me back');
  await page.getByLabel('Preferred dealership').selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Our enquiry service is busy. Please try again.' })).toBeVisible();
  expect(alertText).toBe('An error occurred when submitting this form');
  await expect(page.getByLabel('First name')).toHaveValue('Robin');
  await expect(page.getByLabel('Comments')).toHaveValue('Please call me back');
  await expect(page).toHaveURL(/\/contact$/);
});

test('a trade-in with a photo reaches the dealer with the file', async ({ page }) => {
  const email = `tradein.${Date.now()}@example.com`;
  await page.goto('/sell-your-car');
  await page.getByLabel('First name').fill('Alex');
  await page.getByLabel('Last name').fill('Seller');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone').fill('0412 345 678');
  await page.getByLabel('Postcode').fill('2150');
  await page.getByRole('button', { name: 'Continue' }).click();
  // An unknown plate: the shopper is told and types the car in.
  await page.getByLabel('Registration (rego)').fill('ABC123');
  await page.getByLabel('State').selectOption('NSW');
  await page.getByRole('button', { name: 'Find my car' }).click();
  await expect(page.getByText('We couldn’t find that registration. Please enter your car’s details below.')).toBeVisible();
  await expect(page.getByLabel('Make', { exact: true })).toHaveValue('');
  // A plate the register knows fills make, model, year and badge, still editable.
  await page.getByLabel('Registration (rego)').fill('demo 123');
  await page.getByLabel('State').selectOption('VIC');
  await page.getByRole('button', { name: 'Find my car' }).click();
  await expect(page.getByText('Found: 2021 Mazda CX-5 Maxx Sport. Please check the details below.')).toBeVisible();
  await expect(page.getByLabel('Make', { exact: true })).toHaveValue('Mazda');
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('CX-5');
  await expect(page.getByLabel('Year', { exact: true })).toHaveValue('2021');
  await page.getByLabel('Badge / variant').fill('Maxx Sport (AWD)');
  await page.getByLabel('Odometer (km)').fill('84000');
  // A PNG's first bytes in front of anything else: the server reads the header, and the form says so beside the field.
  const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4096, 7)]);
  await page.getByLabel('Photos of your car').setInputFiles({ name: 'not a car.png', mimeType: 'image/png', buffer: fake });
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Submit' }).click();
  const photosField = page.locator('.dp-field', { has: page.getByLabel('Photos of your car') });
  await expect(photosField.getByText('"not a car.png" is not a readable PNG image: it may be damaged.')).toBeVisible();
  await expect(page.getByLabel('Badge / variant')).toHaveValue('Maxx Sport (AWD)');
  // A real 1×1 PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await page.getByLabel('Photos of your car').setInputFiles({ name: 'my car.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/success\?category=sell-my-car-enquiry$/);
  const leads = await leadsFor(email);
  expect(leads).toHaveLength(1);
  expect(leads[0]!.payload).toMatchObject({
    has_files: true,
    Rego: 'demo 123',
    regoState: 'VIC',
    'Vehicle Make': 'Mazda',
    'Vehicle Model': 'CX-5',
    'Vehicle Year': '2021',
    'Vehicle Badge': 'Maxx Sport (AWD)',
    category: 'Sell My Car Enquiry',
  });
});

test('the success page names the category and allows extra query pairs', async ({ page }) => {
  await page.goto('/success?category=general-enquiry&utm_source=newsletter');
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await expect(page.locator('.success-page')).toHaveAttribute('data-category', 'general-enquiry');
  await expect(page.getByText(/general enquiry/i)).toBeVisible();
});
