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

async function tapOnce(browser, url, tap) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(url, { waitUntil: 'load' });
    // At rest: the page's first script and its analytics have run. The app's files are fetched ahead
    // 3 s after the load (shell/src/boot/app-entry.ts): a tap at 2 s (REST_MS) fetches them itself.
    await page.waitForTimeout(Number(process.env.REST_MS ?? 2000));
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

/** Each tap's runs on the site's pages: `{ name, runs: [{ ms, longest }] }`. */
export async function measureFirstTaps(origin, carPath, searchPath, runs = Number(process.env.LIGHTHOUSE_RUNS ?? 5)) {
  const browser = await launchChromium();
  try {
    const results = [];
    for (const tap of taps) {
      const url = `${origin}${tap.name.startsWith('car') ? carPath : searchPath}`;
      const measured = [];
      for (let run = 0; run < runs; run++) measured.push(await tapOnce(browser, url, tap));
      results.push({ name: tap.name, runs: measured });
    }
    return results;
  } finally {
    await browser.close();
  }
}

export function printFirstTaps(results) {
  console.log('\nFirst tap at 4× CPU on a page at rest, tap → the frame that shows its answer (ms / longest task ms):');
  console.table(
    results.map(({ name, runs }) => ({
      tap: name,
      ...Object.fromEntries(runs.map((run, i) => [`run ${i + 1}`, `${run.ms.toFixed(0)} / ${run.longest.toFixed(0)}`])),
    })),
  );
}
