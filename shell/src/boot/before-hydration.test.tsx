// @vitest-environment jsdom
import { act, lazy, Suspense, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepInteractionsBeforeHydration } from './before-hydration';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A finance calculator's fields as a page would render them: controlled, like the real ones. */
function Calculator({ onPress }: { onPress: () => void }) {
  const [deposit, setDeposit] = useState('');
  const [weekly, setWeekly] = useState(true);
  const [term, setTerm] = useState('60');
  return (
    <form>
      <input aria-label="Deposit" value={deposit} onChange={(event) => setDeposit(event.target.value)} />
      <input aria-label="Weekly" type="checkbox" checked={weekly} onChange={(event) => setWeekly(event.target.checked)} />
      <select aria-label="Term" value={term} onChange={(event) => setTerm(event.target.value)}>
        <option value="36">3 years</option>
        <option value="60">5 years</option>
      </select>
      <button type="button" onClick={onPress}>
        Menu
      </button>
      <output>{`${deposit}|${weekly ? 'weekly' : 'monthly'}|${term}`}</output>
    </form>
  );
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

/** The server's markup in a `data-ssr` root, as the document sends it. */
function serverPage(onPress: () => void) {
  const container = document.createElement('div');
  container.id = 'root';
  container.setAttribute('data-ssr', '');
  container.innerHTML = renderToString(<Calculator onPress={onPress} />);
  document.body.append(container);
  return container;
}

const field = <T extends Element>(container: HTMLElement, selector: string) => container.querySelector(selector) as T;

/** What the browser does alone when the shopper types into a field (no React yet). */
function type(input: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('what a shopper did to a server-rendered page before its code ran', () => {
  it('reaches the components once React has hydrated the markup: the typed deposit, the unticked box, the chosen term and the pressed button', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const onPress = vi.fn();
    const container = serverPage(onPress);
    keepInteractionsBeforeHydration(container);

    type(field<HTMLInputElement>(container, '[aria-label="Deposit"]'), '15000');
    field<HTMLInputElement>(container, '[aria-label="Weekly"]').click();
    const term = field<HTMLSelectElement>(container, '[aria-label="Term"]');
    term.value = '36';
    term.dispatchEvent(new Event('change', { bubbles: true }));
    field<HTMLButtonElement>(container, 'button').click();
    expect(field(container, 'output').textContent).toBe('|weekly|60');
    // The press shows it was taken while the page's code comes.
    expect(field(container, 'button').hasAttribute('data-pressed-early')).toBe(true);

    await act(async () => {
      root = hydrateRoot(container, <Calculator onPress={onPress} />);
    });
    // Hydrated, but nothing told React yet: its state is still the server's.
    expect(field(container, 'output').textContent).toBe('|weekly|60');
    await act(async () => {
      vi.advanceTimersByTime(60);
    });

    expect(field(container, 'output').textContent).toBe('15000|monthly|36');
    expect(field<HTMLInputElement>(container, '[aria-label="Deposit"]').value).toBe('15000');
    expect(field<HTMLInputElement>(container, '[aria-label="Weekly"]').checked).toBe(false);
    expect(onPress).toHaveBeenCalledTimes(1);
    expect(field(container, 'button').hasAttribute('data-pressed-early')).toBe(false);
    vi.useRealTimers();
  });

  it('leaves fields React rendered itself alone, and does nothing when the shopper changed nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const onPress = vi.fn();
    const container = serverPage(onPress);
    keepInteractionsBeforeHydration(container);
    await act(async () => {
      root = hydrateRoot(container, <Calculator onPress={onPress} />);
    });
    // After hydration the field is React's: typing goes through React as usual, once.
    await act(async () => {
      type(field<HTMLInputElement>(container, '[aria-label="Deposit"]'), '900');
    });
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(field(container, 'output').textContent).toBe('900|weekly|60');
    expect(onPress).not.toHaveBeenCalled();
    vi.useRealTimers();
  });

  it('presses a button in a part whose code is still coming once it comes: React, with its root up, drops that click', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const onPress = vi.fn();
    const SaveSearch = () => (
      <button type="button" onClick={onPress}>
        Save this search
      </button>
    );
    const page = (remote: React.ComponentType) => {
      const Remote = remote;
      return (
        <main>
          <Suspense fallback={null}>
            <Remote />
          </Suspense>
        </main>
      );
    };
    const container = document.createElement('div');
    container.id = 'root';
    container.innerHTML = renderToString(page(SaveSearch));
    document.body.append(container);
    keepInteractionsBeforeHydration(container);

    // The remote's code is still on its way when React takes the page over.
    let arrive!: () => void;
    const coming = new Promise<{ default: React.ComponentType }>((resolve) => (arrive = () => resolve({ default: SaveSearch })));
    const Remote = lazy(() => coming);
    await act(async () => {
      root = hydrateRoot(container, page(Remote));
    });
    await act(async () => {
      field<HTMLButtonElement>(container, 'button').click();
      vi.advanceTimersByTime(60);
    });
    expect(onPress).not.toHaveBeenCalled();

    await act(async () => {
      arrive();
      await coming;
    });
    await act(async () => {
      vi.advanceTimersByTime(60);
    });
    expect(onPress).toHaveBeenCalledTimes(1);

    // Hydrated now: a press is React's alone, once.
    await act(async () => {
      field<HTMLButtonElement>(container, 'button').click();
      vi.advanceTimersByTime(60);
    });
    expect(onPress).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });

  it('sends a form sent before its code ran once it has, with what was typed, and not from the browser to the page’s own address', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const sent = vi.fn();
    function Enquiry() {
      const [name, setName] = useState('');
      return (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            sent(name);
          }}
        >
          <input aria-label="First name" name="first_name" value={name} onChange={(event) => setName(event.target.value)} />
          <button type="submit">Send enquiry</button>
        </form>
      );
    }
    const container = document.createElement('div');
    container.id = 'root';
    container.innerHTML = renderToString(<Enquiry />);
    document.body.append(container);
    keepInteractionsBeforeHydration(container);
    const browserSent = vi.fn();
    // Listens last (bubbling, on the document): whether the browser would still send it itself.
    document.addEventListener('submit', (event) => browserSent(event.defaultPrevented));

    type(field<HTMLInputElement>(container, 'input'), 'Alex');
    field<HTMLFormElement>(container, 'form').requestSubmit(field<HTMLButtonElement>(container, 'button'));
    expect(browserSent).toHaveBeenLastCalledWith(true);

    await act(async () => {
      root = hydrateRoot(container, <Enquiry />);
    });
    await act(async () => {
      vi.advanceTimersByTime(60);
    });
    expect(sent).toHaveBeenCalledTimes(1);
    expect(sent).toHaveBeenCalledWith('Alex');
    document.body.innerHTML = '';
    vi.useRealTimers();
  });
});
