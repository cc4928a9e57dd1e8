/**
 * The attribute the shell's first script puts on a button pressed before the app ran
 * (shell/src/boot/before-hydration.ts), until it hands the press to React once the button's part
 * of the page is hydrated. Styled by the shell (the press shows it was taken).
 */
export const pressedEarlyAttribute = 'data-pressed-early';

/**
 * Whether the page holds a press for a button inside `container` (a CSS selector) that it has not
 * handed to React yet: a remote whose button opens code it loads lazily (a form) can fetch that
 * code as its module arrives, beside the page's hydration, rather than once the press is handed
 * over. Always false on the server.
 */
export const pressedEarlyWithin = (container: string): boolean =>
  typeof document !== 'undefined' && document.querySelector(`${container} [${pressedEarlyAttribute}]`) !== null;
