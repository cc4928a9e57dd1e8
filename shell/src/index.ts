// The shell's entry. Its styles are initial CSS (a stylesheet link in the document head), so
// the first frame, which federation/first-paint-entry.ts draws before this script runs, is
// styled; the design system's stylesheet is shared eagerly for that (see hostConfig).
import '@dealer/ui/styles.css';
import './shell.css';
import './federation/route-placeholder.css';

/** A turn for the browser (input, paint) between steps of the app's start. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// The libraries are fetched together and each runs its modules in a task of its own as it arrives,
// then the app's own modules run: run at once, they were one long task on a phone.
const start = () =>
  void Promise.all([import('react-dom/client'), import('react-router-dom'), import('react-redux')])
    .then(nextTask)
    .then(() => import('./bootstrap'));

/** Longest the app waits for the first frame's hero image before it starts loading anyway. */
const heroWaitMs = 800;

const hero = document.querySelector<HTMLImageElement>('#root .route-placeholder img');
if (hero) {
  // A car page's first frame is in the DOM. The app's chunks start once its hero image is on
  // screen: fetched in parallel, they took bandwidth from the image, and running them held the
  // frame that shows it back. On a slow line that reorders the bytes more than it delays them.
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  const afterNextFrame = () => requestAnimationFrame(() => setTimeout(once, 0));
  if (hero.complete) afterNextFrame();
  else {
    hero.addEventListener('load', afterNextFrame, { once: true });
    hero.addEventListener('error', once, { once: true });
  }
  setTimeout(once, heroWaitMs);
} else {
  start();
}
