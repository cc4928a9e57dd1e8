type Doc = Record<string, unknown>;

/**
 * A list of attributes made into lookups: the names themselves, and every start of a name that
 * ends before one of its dots (`a` and `a.b` of `a.b.c`). A document's path is then checked in a
 * few lookups, however long the list.
 */
type Selection = { names: ReadonlySet<string>; starts: ReadonlySet<string>; byPath: Map<string, PathKind> };

/** What a list does with a path: keeps it whole, keeps parts inside it, or leaves it out. */
type PathKind = 'named' | 'start' | 'none';

/** Paths whose kind a list remembers: a document's own keys, which repeat from one document to the next. */
const pathsKept = 512;

/** Each list is made into lookups once, however many documents it selects from. */
const selections = new WeakMap<readonly string[], Selection>();

/**
 * Lists by what they name: a search's `attributesToRetrieve` is a new array on every request, and
 * the search page asks the same one each time, so its lookups (and the kinds of path they have
 * learnt) carry over from one search to the next.
 */
const selectionsByNames = new Map<string, Selection>();
const listsKept = 256;

function selectionOf(selectors: readonly string[]): Selection {
  let selection = selections.get(selectors);
  if (selection) return selection;
  const names = JSON.stringify(selectors);
  selection = selectionsByNames.get(names);
  if (!selection) {
    const starts = new Set<string>();
    for (const selector of selectors)
      for (let dot = selector.indexOf('.'); dot !== -1; dot = selector.indexOf('.', dot + 1)) starts.add(selector.slice(0, dot));
    selection = { names: new Set(selectors), starts, byPath: new Map() };
    if (selectionsByNames.size >= listsKept) selectionsByNames.delete(selectionsByNames.keys().next().value!);
    selectionsByNames.set(names, selection);
  }
  selections.set(selectors, selection);
  return selection;
}

/** Each stored document's parts as last selected, by the list that chose them. */
const storedSelections = new WeakMap<Doc, { selection: Selection; parts: Doc }>();

/**
 * `selectAttributes` of a stored document, which the index replaces and never changes in place:
 * made once per document and list, and shared by every answer that shows it (as a hit showing the
 * whole document shares the stored one). Not to be changed by its reader.
 */
export function selectStoredAttributes(doc: Doc, selectors: readonly string[]): Doc {
  const selection = selectionOf(selectors);
  const kept = storedSelections.get(doc);
  if (kept?.selection === selection) return kept.parts;
  const parts = selectObject(doc, selection, '');
  storedSelections.set(doc, { selection, parts });
  return parts;
}

/** Whether the path is named, or lies within a named attribute (`a.b` within `a`). */
function named(path: string, selection: Selection): boolean {
  if (selection.names.has(path)) return true;
  for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) if (selection.names.has(path.slice(0, dot))) return true;
  return false;
}

/**
 * The parts of a document a list of attributes names, as Meilisearch selects them (its permissive
 * JSON pointer): `a` keeps `a` whole, `a.b` keeps the key `b` of the object `a` or of each object
 * in the array `a`; keys are kept in the document's order.
 */
export function selectAttributes(doc: Doc, selectors: readonly string[]): Doc {
  return selectObject(doc, selectionOf(selectors), '');
}

function kindOf(path: string, selection: Selection): PathKind {
  let kind = selection.byPath.get(path);
  if (kind === undefined) {
    kind = named(path, selection) ? 'named' : selection.starts.has(path) ? 'start' : 'none';
    if (selection.byPath.size < pathsKept) selection.byPath.set(path, kind);
  }
  return kind;
}

function selectObject(object: Doc, selection: Selection, prefix: string): Doc {
  const kept: [string, unknown][] = [];
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const value = object[key];
    const path = prefix + key;
    const kind = kindOf(path, selection);
    if (kind === 'named') kept.push([key, value]);
    else if (kind === 'start') {
      const inner = selectInside(value, selection, `${path}.`);
      if (inner !== undefined) kept.push([key, inner]);
    }
  }
  // fromEntries makes a key such as "__proto__" a plain key, not the prototype.
  return Object.fromEntries(kept);
}

function selectInside(value: unknown, selection: Selection, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => selectInside(item, selection, prefix)).filter((item) => item !== undefined);
  if (value !== null && typeof value === 'object') return selectObject(value as Doc, selection, prefix);
  return undefined;
}
