import { createContext, useContext, useState, type ReactNode } from 'react';

/**
 * Markup the server renders once and repeats (a result card, the header, the footer): what it shows
 * depends only on its `keep` key and on what the render's scope fixes (the site's config and the
 * remotes' versions). The server's store answers with the markup it kept; a miss renders the
 * children as usual, marked, and `harvestKeptMarkup` takes the marked markup out of the page once it
 * is rendered. The page is the markup a full render gives (less React's preload links for eager
 * images inside a repeated part), so the browser hydrates it as usual. In the browser (no store)
 * this is the element with its children.
 */
export type KeptMarkupStore = {
  /** The inner markup kept for `key` (what it rendered inside is told to the page again), or undefined. */
  get(key: string): string | undefined;
  /**
   * A miss this render keeps: the token its element carries until the page is harvested, and the
   * list where what it renders inside (slot modules) is noted for the pages that repeat it.
   */
  mark(key: string, tag: string): { token: string; notes: string[] };
};

export const KeptMarkupContext = createContext<KeptMarkupStore | null>(null);

/** Inside a kept part as it renders for the first time: where what it renders is noted. */
export const KeptMarkupNotesContext = createContext<string[] | null>(null);

/** The attribute a marked element carries between the render and the harvest. */
export const keptMarkupAttribute = 'data-kept-markup';

type KeptTag = 'li' | 'header' | 'footer' | 'div' | 'nav' | 'section';

/**
 * In the browser, while the app hydrates the server's page: the inner markup the server sent for a
 * markup-only part (`markupOnly`), which the part then keeps as it is, or undefined (the part is
 * not in the server's page, or React already owns it: the part renders its children).
 */
export type AdoptMarkup = (name: string) => string | undefined;

export const AdoptMarkupContext = createContext<AdoptMarkup | null>(null);

/** The attribute that names a markup-only part in the page, for the browser to find it. */
export const markupOnlyAttribute = 'data-markup-only';

/** React's mark on a DOM element it owns (the keeper, shell/src/boot/before-hydration.ts, reads it too). */
const ownedByReact = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$'));

/**
 * What the app gives its parts as it hydrates the server's page `root`: a markup-only part's inner
 * markup as the page has it, while React does not yet own that element. A part hydrated late (in a
 * boundary whose code arrives after the first commit) is adopted too; one that mounts for another
 * page, once the server's element is React's or gone, is not.
 */
export function serverMarkup(root: ParentNode): AdoptMarkup {
  // The server's parts, found once (a results page has one per card): a part is adopted at most once.
  let parts: Map<string, Element> | undefined;
  return (name) => {
    parts ??= new Map(
      [...root.querySelectorAll(`[${markupOnlyAttribute}]`)].map((element) => [element.getAttribute(markupOnlyAttribute)!, element]),
    );
    const element = parts.get(name);
    return element?.isConnected && !ownedByReact(element) ? element.innerHTML : undefined;
  };
}

type KeptMarkupProps = {
  as: KeptTag;
  /**
   * What the markup depends on beyond the render's scope (a function: worked out only on the
   * server); null: render it every time.
   */
  keep: string | (() => string) | null;
  /**
   * Nothing inside needs React in the browser (its links are anchors the shell routes, its controls
   * native or the first script's): the app keeps the server's markup of it as it is while it
   * hydrates the page, and hydrates nothing inside, which the first tap no longer pays for. The
   * part's name, unique on the page; a part mounted after the hydration renders its children.
   */
  markupOnly?: string;
  /**
   * With `markupOnly`: what the part shows (a car, say). The server's markup is kept while the part
   * renders this same value; a new one (the car changed, or another search listed it) renders the
   * children, so the part never shows what its data no longer says.
   */
  shows?: unknown;
  className?: string;
  id?: string;
  /**
   * What the part renders. Its elements are made by the caller before the part decides to repeat its
   * markup: work out what it shows inside a component of its own (mf-search's `CardContents`), so a
   * repeat skips that work too.
   */
  children: ReactNode;
} & { [data: `data-${string}`]: string | number | undefined };

export function KeptMarkup({ as: Tag, keep, markupOnly, shows, children, ...attributes }: KeptMarkupProps) {
  const store = useContext(KeptMarkupContext);
  const adopt = useContext(AdoptMarkupContext);
  // Asked once, as the part first renders: a later render keeps what it adopted while it shows the same.
  const [adopted] = useState(() => (markupOnly === undefined ? undefined : { html: adopt?.(markupOnly), shows }));
  const shown = markupOnly === undefined ? attributes : { ...attributes, [markupOnlyAttribute]: markupOnly };
  if (adopted?.html !== undefined && Object.is(adopted.shows, shows))
    return <Tag {...shown} dangerouslySetInnerHTML={{ __html: adopted.html }} />;
  if (!store || keep === null) return <Tag {...shown}>{children}</Tag>;
  const key = typeof keep === 'function' ? keep() : keep;
  const html = store.get(key);
  if (html !== undefined) return <Tag {...shown} dangerouslySetInnerHTML={{ __html: html }} />;
  const { token, notes } = store.mark(key, Tag);
  return (
    <Tag {...shown} {...{ [keptMarkupAttribute]: token }}>
      <KeptMarkupNotesContext.Provider value={notes}>{children}</KeptMarkupNotesContext.Provider>
    </Tag>
  );
}

const marker = new RegExp(` ${keptMarkupAttribute}="([^"]+)"`, 'g');

/**
 * The page's markup without the marks, and each marked element's inner markup by token. React
 * escapes `<` and `>` in attributes and text, so tags found are tags; a marked element's end is
 * its tag's closing one at the same depth.
 */
export function harvestKeptMarkup(html: string, tags: ReadonlyMap<string, string>): { html: string; kept: Map<string, string> } {
  const kept = new Map<string, string>();
  if (!tags.size) return { html, kept };
  for (const match of html.matchAll(marker)) {
    const token = match[1]!;
    const tag = tags.get(token);
    if (!tag) continue;
    const start = html.indexOf('>', match.index) + 1;
    const tagPattern = new RegExp(`<(/?)${tag}[\\s>/]`, 'g');
    tagPattern.lastIndex = start;
    let depth = 1;
    for (let found = tagPattern.exec(html); found; found = tagPattern.exec(html)) {
      depth += found[1] ? -1 : 1;
      if (depth === 0) {
        kept.set(token, html.slice(start, found.index).replace(marker, ''));
        break;
      }
    }
  }
  return { html: html.replace(marker, ''), kept };
}

/** What the server keeps for a part: its inner markup and what it rendered inside. */
export type KeptMarkupEntry = { html: string; notes: readonly string[] };

/** The server's kept parts for one scope (a site's config and its remotes' versions). */
export type KeptMarkupCache = {
  get(key: string): KeptMarkupEntry | undefined;
  set(key: string, entry: KeptMarkupEntry): void;
};

/**
 * One render's store over the server's cache (`onNote` is told what a repeated part rendered
 * inside), and `finish`, which takes the marks out of the rendered page and keeps what they marked.
 */
export function keptMarkupRender(cache: KeptMarkupCache, onNote: (note: string) => void) {
  const marked = new Map<string, { key: string; tag: string; notes: string[] }>();
  const store: KeptMarkupStore = {
    get(key) {
      const entry = cache.get(key);
      entry?.notes.forEach(onNote);
      return entry?.html;
    },
    mark(key, tag) {
      const token = String(marked.size);
      const notes: string[] = [];
      marked.set(token, { key, tag, notes });
      return { token, notes };
    },
  };
  const finish = (html: string) => {
    if (!marked.size) return html;
    const tags = new Map([...marked].map(([token, { tag }]) => [token, tag]));
    const harvested = harvestKeptMarkup(html, tags);
    for (const [token, inner] of harvested.kept) {
      const { key, notes } = marked.get(token)!;
      cache.set(key, { html: inner, notes });
    }
    return harvested.html;
  };
  return { store, finish };
}
