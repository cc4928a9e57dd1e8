// Part of the document's first script (first-paint-entry.ts): no shared modules, no React.
//
// A server-rendered page can be used before its code has run: the shopper ticks a filter, types a
// deposit, picks from a list, presses a button. The browser does what it does alone (the box is
// ticked, the text is there) but React, when it takes the markup over, does not know: its state
// still says "unticked" and the next render would put that back (React 19 keeps the DOM's value at
// hydration and does not tell the component; see react#33129, not on in 19.3). So this script
// notes the form fields changed and the last button pressed before their part of the page was
// hydrated, and once it is, hands them to React as the events it missed: the field's onChange
// runs with the shopper's value, the button's onClick runs.

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

const isField = (node: EventTarget | null): node is Field => node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement || node instanceof HTMLSelectElement;

/** The DOM's own setter, past React's value tracker (which sits on the element itself). */
function setNative(node: Field, property: 'value' | 'checked', value: string | boolean) {
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(node) as object, property)?.set?.call(node, value);
}

const isCheckable = (node: Field): node is HTMLInputElement => node instanceof HTMLInputElement && (node.type === 'checkbox' || node.type === 'radio');

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
 * and hands each to React once it has. Clicks are noted before React has a root, and after it
 * when React drops them (a click on a part it cannot hydrate yet); field changes until the field is
 * hydrated (React never replays those). Fields React made itself are React's from the start, and never noted.
 */
export function keepInteractionsBeforeHydration(root: HTMLElement) {
  const fields = new Map<Field, string | boolean>();
  let button: HTMLButtonElement | null = null;
  let since = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const settle = () => {
    timer = null;
    for (const [field, shopper] of fields) if (!field.isConnected || syncField(field, shopper)) fields.delete(field);
    if (button && (!button.isConnected || reactProps(button))) {
      const pressed = button;
      button = null;
      if (pressed.isConnected) pressed.click();
    }
    if ((fields.size || button) && Date.now() - since < keepForMs) timer = setTimeout(settle, pollMs);
    else {
      fields.clear();
      button = null;
    }
  };
  const watch = () => {
    since = Date.now();
    timer ??= setTimeout(settle, pollMs);
  };

  const onChange = (event: Event) => {
    const target = event.target;
    if (!isField(target) || !root.contains(target) || !untouched(target)) return;
    fields.set(target, shopperValue(target));
    watch();
  };
  document.addEventListener('input', onChange, true);
  document.addEventListener('change', onChange, true);
  document.addEventListener(
    'click',
    (event) => {
      const target = (event.target as Element | null)?.closest?.('button');
      if (!(target instanceof HTMLButtonElement) || !root.contains(target) || target.type === 'submit' || target.disabled) return;
      if (!untouched(target)) return;
      if (!internal(root, '__reactContainer$')) {
        button = target;
        watch();
        return;
      }
      // React has a root but not this part of the page (a remote whose code is still coming). React
      // tries to hydrate it there and then; when it cannot, it stops the click before it reaches the
      // button and drops it (React 18+ does not replay clicks). A click that never reached its button
      // is noted; one that did is React's.
      let reached = false;
      const onReach = () => (reached = true);
      target.addEventListener('click', onReach, { capture: true, once: true });
      setTimeout(() => {
        target.removeEventListener('click', onReach, { capture: true });
        if (reached || !target.isConnected) return;
        button = target;
        watch();
      }, 0);
    },
    true,
  );
}
