// Part of the document's first script (first-script.ts): no shared modules, no React.
//
// The chat's welcome bubble (SPEC §4 "Chat popup"). The server writes the launcher and the bubble,
// hidden (layout/chat-launcher.tsx), and the widget's code (mf-chat) loads only when the shopper
// presses Text us. So this shows the bubble 3 s after load unless the shopper closed it before on
// this site, and closes it for good when they close it or press Text us. It alone changes the
// bubble's `hidden`: React renders it hidden and never changes it (the launcher shows a bubble it
// draws later, when already due, the same way).

import { chatWelcomeClosedKey } from '@dealer/rules/chat';

/** SPEC §9: the welcome bubble appears 3 seconds after load. */
export const chatWelcomeDelayMs = 3000;

/** The launcher's container as the server writes it; `data-site` is the site's slug. */
const launcherSelector = '[data-chat-launcher]';
const bubbleSelector = '[data-chat-bubble]';
/** What closes the bubble: its close button, and Text us (SPEC: clicking Text us closes it). */
const closerSelector = '[data-chat-bubble-close], .chat-widget__launcher';

/** Whether the shopper closed the welcome bubble before on this site (storage refused: not known, so no). */
export function chatWelcomeClosedBefore(siteSlug: string): boolean {
  try {
    return Boolean(localStorage.getItem(chatWelcomeClosedKey(siteSlug)));
  } catch {
    return false;
  }
}

const siteOf = (launcher: Element) => launcher.getAttribute('data-site') ?? '';

function close(launcher: Element) {
  const bubble = launcher.querySelector<HTMLElement>(bubbleSelector);
  if (bubble) bubble.hidden = true;
  try {
    localStorage.setItem(chatWelcomeClosedKey(siteOf(launcher)), '1');
  } catch {
    // Storage refused: closed for this page only.
  }
}

/**
 * Shows the page's welcome bubble 3000 ms after load unless it was closed before, and closes it
 * (remembered) when the shopper closes it or presses Text us, whether or not the app has started.
 * Returns a function that stops both.
 */
export function showChatBubbleLater(): () => void {
  const onClick = (event: MouseEvent) => {
    const target = event.target as Element | null;
    const launcher = target?.closest?.(launcherSelector);
    if (launcher && target?.closest(closerSelector)) close(launcher);
  };
  document.addEventListener('click', onClick);
  const timer = setTimeout(() => {
    const launcher = document.querySelector(launcherSelector);
    const bubble = launcher?.querySelector<HTMLElement>(bubbleSelector);
    if (launcher && bubble && !chatWelcomeClosedBefore(siteOf(launcher))) bubble.hidden = false;
  }, chatWelcomeDelayMs);
  return () => {
    document.removeEventListener('click', onClick);
    clearTimeout(timer);
  };
}
