// bench:pages' first-tap rows (issue 25): a server-rendered page runs no React until the shopper uses
// it (shell/src/boot/app-trigger.ts), so the first tap pays for starting the app. Measured in Chromium
// at 4× CPU (CDP throttling, as Lighthouse's mobile default) on a page at rest: the time from the tap
// to the frame that shows its answer, and the longest task in between. Every run is printed.
// REST_MS (2000): how long the page rests after its load before the tap.
import { launchChromium } from './platform.mjs';

/** What is tapped on each page and what shows it answered (a selector the page matches once it has). */
const taps = [
  {
    name: 'search: Save on the first card',
    button: '.vehicle-card button[aria-pressed]',
    answered: '.vehicle-card button[aria-pressed="true"]',
  },
  // The enquiry form, open with its fields: the dialog alone could open before its form is in it.
  { name: 'car: Enquire now', button: 'button:text-is("Enquire now")', answered: 'dialog[open] input' },
];

/**
 * Where and when the shopper taps. On loopback at 2 s (REST_MS), before the page fetches the app's
 * files ahead (3 s after the load, shell/src/boot/app-entry.ts): the tap fetches them itself, so this
 * is the app's start on this CPU. On a phone's network (Lighthouse's mobile figures: 150 ms round
 * trips, 1.6 Mbps down, 750 kbps up) once the page has settled (6 s): the files fetched ahead are in
 * the cache, and what the tap still fetches costs round trips, as on a shopper's phone.
 */
const conditions = [
  { label: 'loopback, 2 s after the load', network: null, restMs: Number(process.env.REST_MS ?? 2000) },
  {
    label: "a phone's network (150 ms, 1.6 Mbps), 6 s after the load",
    network: { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 },
    restMs: 6000,
  },
];

async function tapOnce(browser, url, tap, { network, restMs }) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    if (network) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', network);
    }
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    // At rest: the page's first script and its analytics have run (and, after 3 s, the app's files
    // and the remote modules' in the markup have been fetched ahead).
    await page.waitForTimeout(restMs);
    // Both ends timed in the page: from the touch event's own time to the animation frame after the
    // answer is in the document (the frame that draws it). Timed from here, through Playwright's
    // polling of a page whose main thread is busy starting the app, the same taps read 300–400 ms
    // longer at 4× (two round trips, each waiting for the main thread).
    await page.evaluate((answered) => {
      const state = { tasks: [], touched: null, answered: null };
      // From the touch itself (its event's time), not from when the test asked for it.
      globalThis.addEventListener('touchstart', (event) => (state.touched ??= event.timeStamp), { capture: true, passive: true });
      globalThis.__firstTap = state;
      new PerformanceObserver((list) => state.tasks.push(...list.getEntries().map((entry) => [entry.startTime, entry.duration]))).observe({
        type: 'longtask',
      });
      const watcher = new globalThis.MutationObserver(() => {
        if (state.touched === null || !globalThis.document.querySelector(answered)) return;
        watcher.disconnect();
        globalThis.requestAnimationFrame(() => (state.answered = performance.now()));
      });
      watcher.observe(globalThis.document, { subtree: true, childList: true, attributes: true });
    }, tap.answered);
    const button = page.locator(tap.button).first();
    await button.scrollIntoViewIfNeeded();
    await button.tap();
    await page.waitForFunction(() => globalThis.__firstTap.answered !== null, undefined, { timeout: 60_000 });
    const { touched, answered, tasks } = await page.evaluate(() => globalThis.__firstTap);
    const during = tasks.filter(([start, duration]) => start + duration >= touched && start <= answered);
    return { ms: answered - touched, longest: Math.max(0, ...during.map(([, duration]) => duration)) };
  } finally {
    await context.close();
  }
}

/** Each tap's runs on the site's pages, in each condition: `{ name, condition, runs: [{ ms, longest }] }`. */
export async function measureFirstTaps(origin, carPath, searchPath, runs = Number(process.env.LIGHTHOUSE_RUNS ?? 5)) {
  const browser = await launchChromium();
  try {
    const results = [];
    for (const condition of conditions)
      for (const tap of taps) {
        const url = `${origin}${tap.name.startsWith('car') ? carPath : searchPath}`;
        const measured = [];
        for (let run = 0; run < runs; run++) measured.push(await tapOnce(browser, url, tap, condition));
        results.push({ name: tap.name, condition: condition.label, runs: measured });
      }
    return results;
  } finally {
    await browser.close();
  }
}

export function printFirstTaps(results) {
  console.log('\nFirst tap at 4× CPU on a page at rest, tap → the frame that shows its answer (ms / longest task ms):');
  console.table(
    results.map(({ name, condition, runs }) => ({
      tap: name,
      where: condition,
      ...Object.fromEntries(runs.map((run, i) => [`run ${i + 1}`, `${run.ms.toFixed(0)} / ${run.longest.toFixed(0)}`])),
    })),
  );
}
