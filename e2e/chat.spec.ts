import { expect, test, type Page } from '@playwright/test';
import { adminGet, adminPost, siteUrl } from './support/platform';

/**
 * The chat in a real browser. Each provider's script is served by a stand-in (route interception,
 * nothing leaves the machine) that sets up the provider's API the way the real script does and,
 * when asked to open, shows a window of its own.
 */
const providerHosts = {
  podium: 'https://connect.podium.com/**',
  livechat: 'https://cdn.livechatinc.com/**',
  zendesk: 'https://static.zdassets.com/**',
  impel: 'https://chat.impel.io/**',
} as const;
type ProviderKind = keyof typeof providerHosts;

const fakeWindow = `
  function showWindow(kind) {
    var el = document.getElementById('fake-provider-chat');
    if (!el) { el = document.createElement('div'); el.id = 'fake-provider-chat'; el.setAttribute('role', 'dialog'); document.body.appendChild(el); }
    el.setAttribute('aria-label', kind + ' chat'); el.textContent = kind + ' chat window'; el.hidden = false;
  }
  function setShown(shown) { var el = document.getElementById('fake-provider-chat'); if (el) el.hidden = !shown; }
`;

const fakeScripts: Record<ProviderKind, string> = {
  podium: `${fakeWindow} window.PodiumWebChat = { open: function () { showWindow('podium'); }, hide: function () { setShown(false); }, show: function () { setShown(true); } };`,
  livechat: `${fakeWindow}
    window.__liveChatSetup = { license: String(window.__lc.license), group: String(window.__lc.group) };
    var handlers = {};
    window.__liveChatEmit = function (name, data) { (handlers[name] || []).forEach(function (handler) { handler(data); }); };
    window.LiveChatWidget = {
      call: function (method) { if (method === 'maximize') showWindow('livechat'); if (method === 'hide') setShown(false); if (method === 'minimize') setShown(true); },
      on: function (name, handler) { (handlers[name] = handlers[name] || []).push(handler); },
    };`,
  zendesk: `${fakeWindow} window.zE = function (widget, command) { if (widget !== 'messenger') return; if (command === 'open') showWindow('zendesk'); if (command === 'hide') setShown(false); if (command === 'show') setShown(true); };`,
  impel: `${fakeWindow} window.ImpelChat = { open: function () { showWindow('impel'); }, hide: function () { setShown(false); }, show: function () { setShown(true); } };`,
};

/** Serves every provider's stand-in and lists the requests the page makes to any of them. */
async function fakeProviders(page: Page, options: { down?: ProviderKind } = {}) {
  const requested: string[] = [];
  for (const [kind, host] of Object.entries(providerHosts) as [ProviderKind, string][]) {
    await page.route(host, (route) => {
      requested.push(route.request().url());
      if (options.down === kind) return route.abort('connectionrefused');
      return route.fulfill({ status: 200, contentType: 'application/javascript', body: fakeScripts[kind] });
    });
  }
  return requested;
}

const dataLayer = (page: Page) =>
  page.evaluate(
    () =>
      ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []).filter((entry) => !('length' in (entry as object))) as Record<
        string,
        unknown
      >[],
  );

const providerSites: { site: string; kind: ProviderKind; script: string }[] = [
  { site: 'metro-motor-group', kind: 'podium', script: 'https://connect.podium.com/widget.js' },
  { site: 'toyota-demo', kind: 'livechat', script: 'https://cdn.livechatinc.com/tracking.js' },
  { site: 'harbour-used-cars', kind: 'impel', script: 'https://chat.impel.io/widget.js?key=impel-demo-harbour-used-cars' },
];

for (const { site, kind, script } of providerSites) {
  test(`${site}: the ${kind} chat's script waits for Text us, then opens; the launcher and its welcome bubble need no code`, async ({
    page,
  }) => {
    const requested = await fakeProviders(page);
    const chatCode: string[] = [];
    page.on('request', (request) => /\/remotes\/mf-chat\//.test(request.url()) && chatCode.push(request.url()));
    const html = (await (await page.goto(siteUrl(site, '/')))?.text()) ?? '';
    // The launcher and the (hidden) welcome bubble are in the first response.
    expect(html).toContain('data-chat-bubble');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Text us' })).toBeVisible();
    // SPEC §4: the welcome bubble 3 s after load, with no code of the chat's loaded.
    await expect(page.getByText('can text you back')).toBeVisible();
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(500);
    expect(requested, 'no third-party chat request before Text us').toEqual([]);
    expect(chatCode, 'no chat code before Text us').toEqual([]);

    await page.getByRole('button', { name: 'Text us' }).click();
    await expect(page.getByRole('dialog', { name: `${kind} chat` })).toBeVisible();
    expect(requested, 'loaded once').toEqual([script]);
    await expect(page.getByRole('button', { name: 'Text us' })).toHaveCount(1);
    // Text us closed the bubble, and the site remembers it (the bubble tests in shell/src/boot/chat-bubble.test.ts).
    await expect(page.getByText('can text you back')).toBeHidden();
    expect(await page.evaluate((key) => localStorage.getItem(key), `dealer:${site}:chat-welcome-closed`)).not.toBeNull();
  });
}

test("toyota-demo: LiveChat gets the site's account and agent group, and a shopper's message counts as a webchat event within 10 s of opening the chat", async ({
  page,
}) => {
  await fakeProviders(page);
  await page.goto(siteUrl('toyota-demo', '/'));
  await page.mouse.wheel(0, 200);
  await page.getByRole('button', { name: 'Text us' }).click();
  await expect(page.getByRole('dialog', { name: 'livechat chat' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __liveChatSetup: unknown }).__liveChatSetup)).toEqual({
    license: expect.stringMatching(/^190000\d\d$/),
    group: expect.stringMatching(/^\d+$/),
  });

  // An agent's greeting is not the shopper's message; the shopper's own is, once.
  await page.evaluate(() =>
    (window as unknown as { __liveChatEmit: (name: string, data: unknown) => void }).__liveChatEmit('new_event', {
      author: { type: 'agent' },
    }),
  );
  await page.evaluate(() =>
    (window as unknown as { __liveChatEmit: (name: string, data: unknown) => void }).__liveChatEmit('new_event', {
      author: { type: 'customer' },
    }),
  );
  await expect
    .poll(async () => (await dataLayer(page)).filter((entry) => entry.event_id === 59))
    .toEqual([expect.objectContaining({ event: 'dealer_event', event_label: 'Web Chat - livechat' })]);
});

test('kiwi-motors asks consent: before the shopper accepts, Text us opens the built-in chat and Zendesk is not loaded; after, Text us opens Zendesk', async ({
  page,
}) => {
  const requested = await fakeProviders(page);
  await page.goto(siteUrl('kiwi-motors', '/'));
  await page.mouse.wheel(0, 200);
  // The banner comes with the app and lifts 'Text us' above it: the shopper presses it where it then is.
  const banner = page.getByRole('region', { name: 'Cookies and tracking' });
  await expect(banner).toBeVisible();
  await page.getByRole('button', { name: 'Text us' }).click();
  await expect(page.getByRole('form', { name: 'Start a chat' })).toBeVisible();
  expect(requested).toEqual([]);
  await page.getByRole('button', { name: 'Close chat' }).click();

  await banner.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('button', { name: 'Text us' }).click();
  await expect(page.getByRole('dialog', { name: 'zendesk chat' })).toBeVisible();
  expect(requested).toEqual(['https://static.zdassets.com/ekr/snippet.js?key=zendesk-demo-kiwi-motors']);
});

test('when the chat provider cannot be reached, Text us opens the built-in chat instead', async ({ page }) => {
  await fakeProviders(page, { down: 'podium' });
  await page.goto(siteUrl('metro-motor-group', '/'));
  await page.mouse.wheel(0, 200);
  await page.getByRole('button', { name: 'Text us' }).click();
  await expect(page.getByRole('form', { name: 'Start a chat' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'podium chat' })).toHaveCount(0);
});

test("built-in chat (ridgeline-trucks, no provider): the shopper's message becomes the dealer's lead, the dealer answers through the admin API and the shopper sees it, and the conversation survives a reload", async ({
  page,
}) => {
  const requested = await fakeProviders(page);
  await page.goto(siteUrl('ridgeline-trucks', '/'));
  await page.mouse.wheel(0, 200);
  await page.getByRole('button', { name: 'Text us' }).click();
  const form = page.getByRole('form', { name: 'Start a chat' });
  await form.getByRole('button', { name: 'Start chat' }).click();
  await expect(form.locator('#chat-name-error')).toHaveText('*This is a required field.');
  await expect(form.locator('#chat-message-error')).toHaveText('*This is a required field.');

  await form.getByLabel('Your name').fill('Sam Driver');
  await form.getByLabel('Mobile Number').fill('02 9999 9999');
  await form.getByLabel('Email Address').fill('sam.driver@example.com');
  await form.getByLabel('Message').fill('Is the white HiLux still available?');
  await form.getByRole('button', { name: 'Start chat' }).click();
  // The dealer texts back: a landline is refused with the SPEC's E.164 message, and nothing typed is lost.
  await expect(form.locator('#chat-phone-error')).toHaveText(
    'Invalid Australian mobile number format (E.164 required). For example, 0411 222 333 is valid.',
  );
  await expect(form.getByLabel('Message')).toHaveValue('Is the white HiLux still available?');
  await form.getByLabel('Mobile Number').fill('0411 222 333');
  await form.getByRole('button', { name: 'Start chat' }).click();

  const conversation = page.getByRole('list', { name: 'Conversation' });
  await expect(conversation.getByText('Is the white HiLux still available?')).toBeVisible();
  await expect.poll(async () => (await dataLayer(page)).filter((entry) => entry.event_id === 59).length).toBe(1);

  // The dealer's side: the conversation awaits a reply, its lead carries the first message.
  const listed = await adminGet('/api/admin/chats?site=ridgeline-trucks&awaiting_reply=true');
  const thread = (listed.body.threads as { id: number; lead_id: number; phone: string; name: string }[]).find(
    (item) => item.name === 'Sam Driver',
  )!;
  expect(thread.phone).toBe('+61411222333');
  const leads = (await adminGet('/api/admin/leads?site=ridgeline-trucks')).body.leads as {
    id: number;
    payload?: Record<string, unknown>;
    subcategory?: string;
  }[];
  expect(JSON.stringify(leads.find((lead) => lead.id === thread.lead_id))).toContain('Web Chat');

  const answered = await adminPost(`/api/admin/chats/${thread.id}/replies`, {
    body: 'Yes it is! Would Saturday suit for a test drive?',
    author_name: 'Jess',
  });
  expect(answered.status).toBe(201);
  await expect(conversation.getByText('Yes it is! Would Saturday suit for a test drive?')).toBeVisible();
  await expect(conversation.getByText('Jess')).toBeVisible();

  await page.getByLabel('Your message').fill('Saturday at 10 works for me');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(conversation.getByText('Saturday at 10 works for me')).toBeVisible();
  const full = await adminGet(`/api/admin/chats/${thread.id}`);
  expect((full.body.messages as { author: string; body: string }[]).map((message) => [message.author, message.body])).toEqual([
    ['shopper', 'Is the white HiLux still available?'],
    ['dealer', 'Yes it is! Would Saturday suit for a test drive?'],
    ['shopper', 'Saturday at 10 works for me'],
  ]);

  await page.reload();
  await page.mouse.wheel(0, 200);
  await page.getByRole('button', { name: 'Text us' }).click();
  await expect(page.getByRole('list', { name: 'Conversation' }).getByText('Saturday at 10 works for me')).toBeVisible();
  expect(requested, 'a site without a provider loads none').toEqual([]);
});
