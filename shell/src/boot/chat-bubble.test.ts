// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chatWelcomeClosedKey } from '@dealer/rules/chat';
import { showChatBubbleLater } from './chat-bubble';

const closedKey = chatWelcomeClosedKey('metro-toyota-parramatta');

/** The launcher as the server writes it (layout/chat-launcher.tsx), before any of the app's code. */
function serverPage() {
  document.body.innerHTML = `<div id="root" data-ssr><main><h1>Metro Toyota</h1></main>
    <div class="chat-widget" data-chat-launcher="" data-site="metro-toyota-parramatta">
      <div class="chat-widget__bubble" role="status" hidden="" data-chat-bubble="">
        <p>Hi! Questions about a car? Metro Toyota Parramatta can text you back.</p>
        <button type="button" class="chat-widget__close" aria-label="Close message" data-chat-bubble-close="">×</button>
      </div>
      <button type="button" class="dp-button dp-button--primary chat-widget__launcher">Text us</button>
    </div></div>`;
}

const bubble = () => document.querySelector<HTMLElement>('[data-chat-bubble]')!;
const press = (selector: string) => document.querySelector<HTMLButtonElement>(selector)!.click();

let stop: (() => void) | null = null;
beforeEach(() => {
  vi.useFakeTimers();
  serverPage();
});
afterEach(() => {
  stop?.();
  stop = null;
  vi.useRealTimers();
  vi.restoreAllMocks();
  localStorage.clear();
  document.body.innerHTML = '';
});

describe('the chat welcome bubble, before the app has started', () => {
  it('appears 3000 ms after load', () => {
    stop = showChatBubbleLater();
    vi.advanceTimersByTime(2999);
    expect(bubble().hidden).toBe(true);
    vi.advanceTimersByTime(1);
    expect(bubble().hidden).toBe(false);
    expect(bubble().textContent).toContain('Hi! Questions about a car? Metro Toyota Parramatta can text you back.');
  });

  it('does not appear when the shopper closed it before on this site', () => {
    localStorage.setItem(closedKey, '1');
    stop = showChatBubbleLater();
    vi.advanceTimersByTime(10_000);
    expect(bubble().hidden).toBe(true);
  });

  it('appears when it was closed on another site only', () => {
    localStorage.setItem(chatWelcomeClosedKey('harbour-used-cars'), '1');
    stop = showChatBubbleLater();
    vi.advanceTimersByTime(3000);
    expect(bubble().hidden).toBe(false);
  });

  it('closes with its close button, and the close is remembered for the next page', () => {
    stop = showChatBubbleLater();
    vi.advanceTimersByTime(3000);
    press('[data-chat-bubble-close]');
    expect(bubble().hidden).toBe(true);
    expect(localStorage.getItem(closedKey)).toBe('1');

    stop();
    serverPage();
    stop = showChatBubbleLater();
    vi.advanceTimersByTime(10_000);
    expect(bubble().hidden).toBe(true);
  });

  it('closes, remembered, when the shopper presses Text us, and does not come later when pressed before it showed', () => {
    stop = showChatBubbleLater();
    vi.advanceTimersByTime(3000);
    press('.chat-widget__launcher');
    expect(bubble().hidden).toBe(true);
    expect(localStorage.getItem(closedKey)).toBe('1');

    stop();
    localStorage.clear();
    serverPage();
    stop = showChatBubbleLater();
    vi.advanceTimersByTime(1000);
    press('.chat-widget__launcher');
    vi.advanceTimersByTime(10_000);
    expect(bubble().hidden).toBe(true);
    expect(localStorage.getItem(closedKey)).toBe('1');
  });

  it('does nothing on a page without the launcher (chat hidden there), and ignores other buttons', () => {
    document.body.innerHTML = '<div id="root" data-ssr><button type="button" class="chat-widget__launcher">Text us</button></div>';
    stop = showChatBubbleLater();
    press('.chat-widget__launcher');
    vi.advanceTimersByTime(3000);
    expect(localStorage.length).toBe(0);
  });

  it('still shows the bubble when the browser refuses storage', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    stop = showChatBubbleLater();
    vi.advanceTimersByTime(3000);
    expect(bubble().hidden).toBe(false);
    press('[data-chat-bubble-close]');
    expect(bubble().hidden).toBe(true);
  });
});
