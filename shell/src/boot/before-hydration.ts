// Part of the document's first script (first-script.ts): no shared modules, no React.
//
// A server-rendered page can be used before its code has run: the shopper ticks a filter, types a
// deposit, picks from a list, presses a button. The browser does what it does alone (the box is
// ticked, the text is there) but React, when it takes the markup over, does not know: its state
// still says "unticked" and the next render would put that back (React 19 keeps the DOM's value at
// hydration and does not tell the component; see react#33129, not on in 19.3). So this script
// notes the form fields changed and the last button pressed and the form sent before their part of the
// page was hydrated, and once it is, hands them to React as the events it missed: the field's onChange
// runs with the shopper's value, the button's onClick runs.

// The mark on a button pressed before its code ran, until React has it (styled in shell.css; remotes read it too).
import { pressedEarlyAttribute } from '@dealer/ui/pressed-early';
import { worksWithoutApp } from './site-menu';

/** How long a noted interaction waits for its part of the page to hydrate. */
const keepForMs = 30_000;
const pollMs = 50;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

type Fiber = { tag: number; flags: number; return: Fiber | null; alternate: Fiber | null };

const internal = <T>(node: object, prefix: string): T | null => {
  for (const key of Object.keys(node)) if (key.startsWith(prefix)) return (node as Record<string, T>)[key] ?? null;
  return null;
};

/** Markup React has not touched yet: server-rendered and not hydrated (React's nodes carry `__reactFiber$…`). */
const untouched = (node: Element) => internal(node, '__reactFiber$') === null;

/**
 * Whether a fiber is in the tree React has committed, as React itself decides it
 * (getNearestMountedFiber, react-dom 19): a fiber still being placed or hydrated (flags
 * Placement | Hydrating = 4098) is not, and the walk up must end at the root (tag 3).
 */
function isMounted(fiber: Fiber): boolean {
  let nearest: Fiber | null = fiber;
  let node = fiber;
  for (let next: Fiber | null = fiber; next && !next.alternate; next = node.return) {
    node = next;
    if (node.flags & 4098) nearest = node.return;
  }
  while (node.return) node = node.return;
  return node.tag === 3 && nearest === fiber;
}

/**
 * React's props on a DOM node once React has hydrated it and committed that (its internal
 * `__reactProps$…` and `__reactFiber$…` keys), else null. The keys are set while React is still
 * rendering (a concurrent hydration can be unfinished for a while); an event sent then is dropped.
 */
function reactProps(node: Element): Record<string, unknown> | null {
  const props = internal<Record<string, unknown>>(node, '__reactProps$');
  const fiber = internal<Fiber>(node, '__reactFiber$');
  return props && fiber && isMounted(fiber) ? props : null;
}

const isField = (node: EventTarget | null): node is Field =>
  node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement || node instanceof HTMLSelectElement;

/** The DOM's own setter, past React's value tracker (which sits on the element itself). */
function setNative(node: Field, property: 'value' | 'checked', value: string | boolean) {
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(node) as object, property)?.set?.call(node, value);
}

const isCheckable = (node: Field): node is HTMLInputElement =>
  node instanceof HTMLInputElement && (node.type === 'checkbox' || node.type === 'radio');

/** What the shopper left in a field: its ticked state or its value. */
const shopperValue = (node: Field): string | boolean => (isCheckable(node) ? node.checked : node.value);

/**
 * Tells React about a field the shopper left at `shopper` before it hydrated: true once done (or
 * nothing to do), false while the field is not hydrated yet. `shopper` is what was noted when the
 * shopper changed it: a render React did since (another field's change) may have put its own back.
 */
function syncField(node: Field, shopper: string | boolean = shopperValue(node)): boolean {
  const props = reactProps(node);
  if (!props) return false;
  if (isCheckable(node)) {
    const known = Boolean(props.checked ?? props.defaultChecked ?? false);
    if (shopper === known) return true;
    // React's tracker takes the value it knows, the DOM the shopper's: React sees a change.
    node.checked = known;
    setNative(node, 'checked', shopper);
    node.dispatchEvent(new Event('click', { bubbles: true }));
    return true;
  }
  const known = props.value ?? props.defaultValue;
  if (known !== undefined && String(known) === shopper) return true;
  if (node instanceof HTMLSelectElement) {
    // React hears a list's change event whatever its tracker says.
    setNative(node, 'value', shopper);
    node.dispatchEvent(new Event('change', { bubbles: true }));
    return true;
  }
  node.value = String(known ?? '');
  setNative(node, 'value', shopper);
  node.dispatchEvent(new Event('input', { bubbles: true }));
  return true;
}

/**
 * Starts noting interactions inside `root` with server-rendered markup React has not hydrated yet,
 * and hands each to React once it has. Clicks and sent forms are noted before React has a root,
 * and after it when React drops them (on a part it cannot hydrate yet); field changes until the
 * field is hydrated (React never replays those). Fields React made itself are React's from the start, and never noted.
 */
export function keepInteractionsBeforeHydration(root: HTMLElement) {
  const fields = new Map<Field, string | boolean>();
  let button: HTMLButtonElement | null = null;
  let sent: { form: HTMLFormElement; submitter: HTMLElement | null } | null = null;
  let since = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const settle = () => {
    timer = null;
    for (const [field, shopper] of fields) if (!field.isConnected || syncField(field, shopper)) fields.delete(field);
    if (button && (!button.isConnected || reactProps(button))) {
      const pressed = button;
      button = null;
      pressed.removeAttribute(pressedEarlyAttribute);
      if (pressed.isConnected) pressed.click();
    }
    if (sent && (!sent.form.isConnected || reactProps(sent.form))) {
      const { form, submitter } = sent;
      sent = null;
      if (form.isConnected) form.requestSubmit(submitter instanceof HTMLButtonElement && submitter.form === form ? submitter : null);
    }
    if ((fields.size || button || sent) && Date.now() - since < keepForMs) timer = setTimeout(settle, pollMs);
    else {
      fields.clear();
      button?.removeAttribute(pressedEarlyAttribute);
      button = null;
      sent = null;
    }
  };
  const watch = () => {
    since = Date.now();
    timer ??= setTimeout(settle, pollMs);
  };

  /**
   * Runs `note` when React will not act on `event` (on `target`, unhydrated when it came): before
   * React has a root, or when React has a root but not this part of the page (a remote whose code
   * is still coming). React then tries to hydrate it there and then; when it cannot, it stops the
   * event before it reaches its target and drops it (React 18+ does not replay clicks or submits).
   * An event that never reached its target is noted; one that did is React's.
   */
  const whenReactDropped = (event: Event, target: Element, note: () => void) => {
    if (!internal(root, '__reactContainer$')) return note();
    let reached = false;
    const onReach = () => (reached = true);
    target.addEventListener(event.type, onReach, { capture: true, once: true });
    setTimeout(() => {
      target.removeEventListener(event.type, onReach, { capture: true });
      if (!reached && target.isConnected) note();
    }, 0);
  };

  const onChange = (event: Event) => {
    const target = event.target;
    if (!isField(target) || !root.contains(target) || !untouched(target)) return;
    fields.set(target, shopperValue(target));
    watch();
  };
  document.addEventListener('input', onChange, true);
  // A form sent before its code ran: the browser would send it itself, to this page's address with
  // what was typed in it, and the page would start again empty. It waits for its code instead. A
  // form that names its method (the search bar's GET of ?q=) is meant to work without code.
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !root.contains(form) || !untouched(form) || form.hasAttribute('method')) return;
      // React's own onSubmit prevents the browser's send too, when React hears it.
      event.preventDefault();
      const submitter = (event as SubmitEvent).submitter;
      whenReactDropped(event, form, () => {
        sent = { form, submitter };
        watch();
      });
    },
    true,
  );
  document.addEventListener('change', onChange, true);
  document.addEventListener(
    'click',
    (event) => {
      const target = (event.target as Element | null)?.closest?.('button');
      if (!(target instanceof HTMLButtonElement) || !root.contains(target) || target.type === 'submit' || target.disabled) return;
      if (target.hasAttribute(worksWithoutApp)) return;
      if (!untouched(target)) return;
      whenReactDropped(event, target, () => {
        // The shopper sees their press was taken while its code comes (shell.css), and only the last one counts.
        button?.removeAttribute(pressedEarlyAttribute);
        button = target;
        target.setAttribute(pressedEarlyAttribute, '');
        watch();
      });
    },
    true,
  );
}
