import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { consoleUrl, expectNoSeriousAxeViolations, signIn } from './support/console';
import { demoStock } from './support/demo-stock';
import { siteUrl } from './support/platform';
import { solidPng } from './support/solid-png';

test('staff sign in with an e-mailed code, move a shopper’s enquiry to contacted with a note, and export the leads as CSV', async ({
  page,
}) => {
  const slug = 'harbour-used-cars';
  const email = `jane.${Date.now()}@example.com`;
  // A shopper enquires on the dealer's site.
  await page.goto(siteUrl(slug, '/'));
  const status = await page.evaluate(async (shopper) => {
    const res = await fetch('/api/leads', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        lead: {
          category: 'General Enquiry',
          name: 'Jane',
          last_name: 'Console',
          email: shopper,
          phone: '0412345678',
          comments: 'Is the ute still here?',
        },
      }),
    });
    return res.status;
  }, email);
  expect(status).toBe(201);

  await signIn(page, `staff@${slug}.localhost`);
  await expectNoSeriousAxeViolations(page);
  // The leads inbox comes from mf-leads, at the version the site runs.
  await expect(page.getByRole('heading', { name: 'Leads' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Jane Console' })).toBeVisible();
  // Another shopper enquires while the inbox is open: the lead appears without a reload.
  const shopper = await page.context().newPage();
  await shopper.goto(siteUrl(slug, '/'));
  const later = await shopper.evaluate(async (address) => {
    const res = await fetch('/api/leads', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        lead: { category: 'General Enquiry', name: 'Live', last_name: 'Arrival', email: address, phone: '0412345679' },
      }),
    });
    return res.status;
  }, `live.${Date.now()}@example.com`);
  await shopper.close();
  expect(later).toBe(201);
  await expect(page.getByRole('button', { name: 'Live Arrival' })).toBeVisible();
  await expect(page.getByText('1 new lead since you opened the inbox.')).toBeVisible();
  await page.getByLabel('Search').fill(email);
  await page.getByRole('button', { name: 'Show leads' }).click();
  await page.getByRole('button', { name: 'Jane Console' }).click();
  await expect(page.getByRole('heading', { name: 'Jane Console · General Enquiry' })).toBeVisible();
  await expect(page.getByText('Is the ute still here?')).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel('Status', { exact: true }).last().selectOption('contacted');
  await page.getByLabel('Note').fill('Called her back: coming in on Saturday');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved: Contacted.' })).toBeVisible();
  await expect(page.getByText('Called her back: coming in on Saturday')).toBeVisible();
  await expect(page.getByRole('row', { name: /Jane Console/ }).getByText('Contacted')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const csv = await readFile((await (await download).path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toContain('id,');
  expect(csv).toContain(email);

  // After a reload the change is still there: it was saved, not just shown.
  await page.reload();
  await page.getByLabel('Status', { exact: true }).first().selectOption('contacted');
  await page.getByLabel('Form', { exact: true }).selectOption('General Enquiry');
  await page.getByRole('button', { name: 'Show leads' }).click();
  await expect(page.getByRole('button', { name: 'Jane Console' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Live Arrival' })).toHaveCount(0);
  // Leads of one location (the site has two): Jane named none, so she is not among them.
  await page.getByLabel('Location', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Show leads' }).click();
  await expect(page.getByText('No leads match.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Jane Console' })).toHaveCount(0);
});

test('a dealer sees only their own sites, and staff cannot read another site’s leads; a session on another device can be ended', async ({
  page,
  browser,
}) => {
  const laptop = await (await browser.newContext()).newPage();
  await signIn(laptop, 'staff@ridgeline-trucks.localhost');
  await signIn(page, 'staff@ridgeline-trucks.localhost');
  await page.getByRole('link', { name: 'Sessions' }).click();
  await expect(page.getByRole('heading', { name: 'Where you are signed in' })).toBeVisible();
  await page.getByRole('button', { name: 'End this session' }).first().click();
  await expect(page.getByRole('status').filter({ hasText: 'That session is ended' })).toBeVisible();
  await laptop.reload();
  await expect(laptop.getByLabel('Work e-mail')).toBeVisible();
  const other = await page.evaluate(() => fetch('/api/console/sites/harbour-used-cars/leads').then((res) => res.status));
  expect(other).toBe(403);
  const me = await page.evaluate(() => fetch('/api/console/me').then((res) => res.json() as Promise<{ sites: { slug: string }[] }>));
  expect(me.sites.map((site) => site.slug)).toEqual(['ridgeline-trucks']);
});

test('the operator chooses any site', async ({ page }) => {
  await signIn(page, 'operator@dealer-platform.localhost');
  await expect(page.getByRole('heading', { name: 'Your sites' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.getByRole('link', { name: 'Kiwi Motors' }).click();
  await expect(page.getByRole('heading', { name: 'Leads' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/sites/kiwi-motors/leads');
  // The dashboard: the funnel from the site's own event log and the leads per day, charted.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Kiwi Motors at a glance' })).toBeVisible();
  await expect(page.getByRole('definition').first()).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});

test('the operator switches a remote off for a site, pins a version, rolls back, and the shop follows each step', async ({
  page,
  browser,
}) => {
  const slug = 'coastal-motorcycles';
  const shopper = await (await browser.newContext()).newPage();
  await shopper.goto(siteUrl(slug, '/'));
  const shopRemotes = () =>
    shopper.evaluate(() =>
      fetch('/api/site')
        .then((res) => res.json() as Promise<{ remotes: { name: string; version: string }[] }>)
        .then((site) => Object.fromEntries(site.remotes.map((remote) => [remote.name, remote.version]))),
    );
  const before = await shopRemotes();
  expect(before['mf-chat']).toBeTruthy();

  await signIn(page, 'operator@dealer-platform.localhost');
  await page.goto(consoleUrl(`/sites/${slug}/remotes`));
  await expect(page.getByRole('heading', { name: 'Remotes of Coastal Motorcycles' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByRole('button', { name: 'Switch mf-chat off' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'mf-chat switched off.' })).toBeVisible();
  await expect.poll(async () => (await shopRemotes())['mf-chat']).toBeUndefined();

  // Preview an older build of mf-search in this browser only: the shopper keeps the live one.
  const running = before['mf-search']!;
  await page.getByLabel('Version of mf-search').selectOption(running);
  const opened = page.context().waitForEvent('page');
  await page.getByRole('button', { name: 'Preview the site at these versions' }).click();
  const previewTab = await opened;
  await previewTab.waitForLoadState();
  expect(new URL(previewTab.url()).host).toBe(new URL(siteUrl(slug)).host);
  expect(new URL(previewTab.url()).search).toBe('');
  const previewed = await previewTab.evaluate(() =>
    fetch('/api/site').then((res) => res.json() as Promise<{ remotes: { name: string; version: string }[] }>),
  );
  expect(previewed.remotes.find((remote) => remote.name === 'mf-search')!.version).toBe(running);
  expect(previewed.remotes.map((remote) => remote.name)).not.toContain('mf-chat');
  // The preview says so on the page, and ends at a click: the tab is back on what shoppers see.
  const banner = previewTab.getByRole('region', { name: 'Preview of remote versions' });
  await expect(banner).toContainText(`mf-search ${running}`);
  await banner.getByRole('link', { name: 'End the preview' }).click();
  await expect(previewTab.getByRole('region', { name: 'Preview of remote versions' })).toHaveCount(0);
  const ended = await previewTab.evaluate(() =>
    fetch('/api/site').then((res) => res.json() as Promise<{ preview?: boolean; remotes: { name: string }[] }>),
  );
  expect(ended.preview).toBeUndefined();
  await previewTab.close();

  await page.getByRole('button', { name: 'Apply version of mf-search' }).click();
  await expect(page.getByRole('status').filter({ hasText: `mf-search: ${running}.` })).toBeVisible();
  await expect(page.getByText(/changed mf-search from latest to/)).toBeVisible();

  // Roll both back from the history: the shop is as it was.
  await page.getByRole('button', { name: 'Roll back mf-search to latest' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'mf-search rolled back to latest.' })).toBeVisible();
  await page
    .getByRole('button', { name: /Roll back mf-chat to/ })
    .first()
    .click();
  await expect.poll(async () => (await shopRemotes())['mf-chat']).toBe(before['mf-chat']);
  expect(await shopRemotes()).toEqual(before);
});

test('staff cannot open a site’s remotes', async ({ page }) => {
  await signIn(page, 'staff@harbour-used-cars.localhost');
  await expect(page.getByRole('link', { name: 'Remotes' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
  expect(await page.evaluate(() => fetch('/api/console/sites/harbour-used-cars/users').then((res) => res.status))).toBe(403);
  const status = await page.evaluate(() => fetch('/api/console/sites/harbour-used-cars/remote-settings').then((res) => res.status));
  expect(status).toBe(403);
});

test('a site admin invites a salesperson, who signs in to the site; then makes them an admin and removes them', async ({
  page,
  browser,
}) => {
  const slug = 'outback-campers';
  const newcomer = `sales.${Date.now()}@example.com`;
  await signIn(page, `site-admin@${slug}.localhost`);
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users of Outback Campers' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.getByLabel('E-mail').fill('not-an-address@');
  await page.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(page.getByText('Please enter a valid e-mail address.')).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveValue('not-an-address@');
  await page.getByLabel('E-mail').fill(newcomer);
  await page.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${newcomer} is invited as staff.` })).toBeVisible();

  const other = await (await browser.newContext()).newPage();
  await signIn(other, newcomer);
  await expect(other.getByRole('heading', { name: 'Leads' })).toBeVisible();
  await expect(other.getByRole('link', { name: 'Users' })).toHaveCount(0);

  await page.getByLabel(`Role of ${newcomer}`).selectOption('site_admin');
  await expect(page.getByRole('status').filter({ hasText: `${newcomer} is now site admin.` })).toBeVisible();
  await page.getByRole('button', { name: `Remove ${newcomer}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `${newcomer} no longer works on Outback Campers.` })).toBeVisible();
  // The audit log says who did each of it.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log of Outback Campers' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`users.write · user ${newcomer.replace(/[.]/g, '\\.')}`) })).toHaveCount(3);
  await expectNoSeriousAxeViolations(page);
  await other.reload();
  await expect(other.getByText('Your account has no site yet.')).toBeVisible();
});

test('staff answer a shopper’s chat, which the shopper’s open chat shows, and see the shopper’s answer without a reload', async ({
  page,
  browser,
}) => {
  const shopper = await (await browser.newContext()).newPage();
  await shopper.goto(siteUrl('ridgeline-trucks', '/'));
  await shopper.mouse.wheel(0, 200);
  await shopper.getByRole('button', { name: 'Text us' }).click();
  const form = shopper.getByRole('form', { name: 'Start a chat' });
  // Names are letters only: a different one each run, as the e2e store is kept between walks of one run.
  const name = `Casey ${[...String(Date.now() % 100000)].map((digit) => 'abcdefghij'[Number(digit)]).join('')}`;
  await form.getByLabel('Your name').fill(name);
  await form.getByLabel('Mobile Number').fill('0411 222 444');
  await form.getByLabel('Email Address').fill('casey@example.com');
  await form.getByLabel('Message').fill('Does the tray ute have a towbar?');
  await form.getByRole('button', { name: 'Start chat' }).click();
  const conversation = shopper.getByRole('list', { name: 'Conversation' });
  await expect(conversation.getByText('Does the tray ute have a towbar?')).toBeVisible();

  await signIn(page, 'staff@ridgeline-trucks.localhost');
  await page.getByRole('link', { name: 'Chats' }).click();
  await page.getByRole('button', { name }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`Conversation with ${name}`) })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.getByLabel('Your reply').fill('Yes, a 3.5 t towbar. Want to see it on Saturday?');
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(conversation.getByText('Yes, a 3.5 t towbar. Want to see it on Saturday?')).toBeVisible();

  await shopper.getByLabel('Your message').fill('Saturday at 10, thanks');
  await shopper.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Messages' }).getByText('Saturday at 10, thanks')).toBeVisible();
});

test('staff release a paid reservation: the deposit is refunded and the car is free again', async ({ page }) => {
  const slug = 'metro-motor-group';
  await page.goto(siteUrl(slug, '/'));
  const cars = demoStock().cars.filter((car) => car.site === slug && car.show_on_dealer_website && car.status === 'in_stock');
  const reservation = await page.evaluate(
    async (slugs) => {
      for (const car of slugs) {
        const held = await fetch(`/api/cars/${car}/reservations`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            first_name: 'Rae',
            last_name: 'Buyer',
            email: `rae.${Date.now()}@example.com`,
            phone: '0411 555 666',
            terms_accepted: true,
          }),
        });
        if (held.status !== 201) continue;
        const { reservation, token } = (await held.json()) as { reservation: { id: number }; token: string };
        const paid = await fetch(`/api/reservations/${reservation.id}/test-payment`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'x-reservation-token': token },
          body: JSON.stringify({ card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
        });
        if (paid.status === 200) return { id: reservation.id, car };
      }
      return null;
    },
    cars.map((car) => car.slug).slice(-40),
  );
  expect(reservation).not.toBeNull();

  await signIn(page, `staff@${slug}.localhost`);
  await page.getByRole('link', { name: 'Reservations' }).click();
  await expect(page.getByRole('heading', { name: 'Reservations' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.getByRole('button', { name: `Release reservation ${reservation!.id} and refund` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Reservation ${reservation!.id} released` })).toBeVisible();
  await expect(page.getByRole('row', { name: /Rae Buyer/ }).getByText('Released, refunded')).toBeVisible();
});

test('a site admin changes opening hours and a switch and sees them on the site, adds a webhook and sends a test lead; staff only read the settings', async ({
  page,
  browser,
}) => {
  const slug = 'kiwi-motors';
  await signIn(page, `site-admin@${slug}.localhost`);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings of Kiwi Motors' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  const location = (await page.locator('.dc-location h3').first().textContent())!.trim();
  await page.getByRole('combobox', { name: `${location} Sunday open`, exact: true }).selectOption('Open');
  await page.getByLabel(`${location} Sunday opens at`).fill('10:00');
  await page.getByLabel(`${location} Sunday closes at`).fill('14:00');
  const postcode = page.getByLabel('Ask for the postcode on forms');
  const hadPostcode = await postcode.isChecked();
  await postcode.setChecked(!hadPostcode);
  // A wrong address is refused beside its field, and what was typed stays.
  await page.getByRole('button', { name: 'Add a target' }).click();
  const url = page.getByLabel('Address (https://…)');
  await url.fill('crm.example.com/hook');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(
    page
      .locator('.dp-field__error')
      .filter({ hasText: /url|URL|address/i })
      .first(),
  ).toBeVisible();
  await expect(url).toHaveValue('crm.example.com/hook');
  await url.fill('https://crm.example.com/hooks/leads');
  await page.getByLabel(/^Lead webhook signing secret/).fill('whsec_kiwi_0123456789');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(page.getByLabel('Lead webhook signing secret (set)')).toHaveValue('');

  // The header's first link renamed, and a logo uploaded in place of the drawn wordmark.
  const firstLink = page.locator('#header-0-label');
  const oldLabel = await firstLink.inputValue();
  await firstLink.fill('Find your next car');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await page.getByLabel(/^New logo/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(480, 120) });
  await page.getByRole('button', { name: 'Upload the logo' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Logo uploaded.' })).toBeVisible();
  const logo = await page.getByRole('img', { name: 'The site’s logo now' }).getAttribute('src');
  expect(logo).toMatch(/^\/img\/site\/[0-9a-f]{32}\.png$/);

  const shopper = await (await browser.newContext()).newPage();
  await shopper.goto(siteUrl(slug, '/dealerships'));
  const shown = shopper.getByRole('table', { name: `Opening hours of ${location}` });
  await expect(shown.getByRole('row', { name: /Sunday/ })).toContainText('10am - 2pm');
  await shopper.goto(siteUrl(slug, '/contact'));
  await expect(shopper.getByRole('textbox', { name: 'Email' })).toBeVisible();
  await expect(shopper.getByLabel('Postcode')).toHaveCount(hadPostcode ? 0 : 1);
  const header = shopper.locator('header').first();
  await expect(header.getByRole('link', { name: 'Find your next car' })).toBeVisible();
  await expect(header.getByRole('link', { name: oldLabel, exact: true })).toHaveCount(0);
  await expect(header.locator(`img[src="${logo}"]`)).toHaveJSProperty('naturalWidth', 480);

  await page.getByRole('button', { name: 'Send a test lead' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Test lead \d+ sent to (adf-file, )?webhook/ })).toBeVisible();

  // Two tabs of the settings: each saves only what it changed, so neither undoes the other.
  const other = await page.context().newPage();
  await other.goto(consoleUrl(`/sites/${slug}/settings`));
  await expect(other.getByRole('heading', { name: 'Settings of Kiwi Motors' })).toBeVisible();
  await page.locator('#settings-phone').fill('09 300 9999');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  const fuel = other.getByLabel('Fuel tags on cars');
  const hadFuel = await fuel.isChecked();
  await fuel.setChecked(!hadFuel);
  await other.getByRole('button', { name: 'Save settings' }).click();
  await expect(other.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await other.reload();
  await expect(other.locator('#settings-phone')).toHaveValue('09 300 9999');
  await expect(other.getByLabel('Fuel tags on cars')).toBeChecked({ checked: !hadFuel });
  await other.close();

  const staff = await (await browser.newContext()).newPage();
  await signIn(staff, `staff@${slug}.localhost`);
  await staff.getByRole('link', { name: 'Settings' }).click();
  await expect(staff.getByText('Your role can read these settings; a site admin changes them.')).toBeVisible();
  await expect(staff.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
  await expect(staff.locator('#settings-name')).toBeDisabled();
  await expect(staff.getByRole('button', { name: 'Upload the logo' })).toHaveCount(0);
});
