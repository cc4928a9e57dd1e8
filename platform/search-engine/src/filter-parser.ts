/**
 * Meilisearch filter expressions: parse into a tree, with errors that point at the column,
 * in the wording Meilisearch uses. Keywords are upper-case only, as in Meilisearch.
 */
export type FilterValue = string;
/**
 * A `_geoRadius` / `_geoBoundingBox` condition. Meilisearch checks its coordinates only once `_geo`
 * is known to be filterable, so a bad one is kept as the error to report then (`invalid`).
 */
export type GeoFilterNode =
  | { type: 'geoRadius'; lat: number; lng: number; radius: number; invalid?: string }
  | { type: 'geoBoundingBox'; top: number; right: number; bottom: number; left: number; invalid?: string };
export type FilterNode =
  | { type: 'and'; children: FilterNode[] }
  | { type: 'or'; children: FilterNode[] }
  | { type: 'not'; child: FilterNode }
  | { type: 'compare'; attribute: string; op: '=' | '!=' | '>' | '>=' | '<' | '<='; value: FilterValue }
  | { type: 'range'; attribute: string; from: FilterValue; to: FilterValue }
  | { type: 'in'; attribute: string; values: FilterValue[] }
  | { type: 'exists'; attribute: string }
  | { type: 'null'; attribute: string }
  | { type: 'empty'; attribute: string }
  | GeoFilterNode
  | { type: 'true' };

export class FilterSyntaxError extends Error {
  /** Without `source`, the filter is not echoed (one over the size limits). */
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
    source?: string,
  ) {
    // Meilisearch's last line: the 1-based columns where the mistake starts and ends, then the filter.
    super(source === undefined ? message : `${message}\n${start + 1}:${end + 1} ${source}`);
  }
}

/**
 * Meilisearch's nesting limit (filter-parser's `MAX_FILTER_DEPTH`): every OR, AND, NOT and bracket
 * level counts, so brackets nest at most 49 deep and a chain of NOTs 197 long, as there. It keeps
 * the parser, the evaluators and the caches' JSON from recursing without bound.
 */
const maxFilterDepth = 200;
const depthMessage = 'The filter exceeded the maximum depth limit. Try rewriting the filter so that it contains fewer nested conditions.';

/**
 * Bounds on a filter as a caller sends it. Meilisearch has none beyond the depth (and its 100 MB
 * payload), but this engine evaluates in the request's thread, a pass over the candidates per
 * condition. The search page's largest filter selects every value it shows of every facet: up to
 * 100 (maxValuesPerFacet) of each of SPEC's 23 value facets, one `IN [...]` each, and the 5 range
 * facets: under 30 conditions in about 60 KB (the demo sites' largest: 2.5 KB). The site's own
 * rules, which the server ANDs in, are not counted (parseFilterExpression), nor are the values of
 * an `IN [...]`, which cost a set lookup each.
 */
export const filterLimits = { characters: 65_536, conditions: 1_000 } as const;
const rewriteHint = 'Try rewriting the filter so that it contains fewer conditions, for example one `IN [...]` instead of many `OR`.';

type Token = { kind: 'word' | 'string' | 'op' | 'punct'; text: string; start: number; end: number };

const operations =
  '`=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `_geoRadius`, or `_geoBoundingBox`';
const geoRadiusUsage = 'The `_geoRadius` filter expects three arguments: `_geoRadius(latitude, longitude, radius)`.';
const geoBoundingBoxUsage =
  'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.';
const reservedGeo = (name: string) =>
  `\`${name}\` is a reserved keyword and thus can't be used as a filter expression. Use the \`_geoRadius(latitude, longitude, distance)\` or \`_geoBoundingBox([latitude, longitude], [latitude, longitude])\` built-in rules to filter on \`_geo\` coordinates.`;
/** A number as Meilisearch's grammar reads one (nom's `recognize_float`). */
const floatPattern = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** A float as Rust prints it: never in exponent form. */
const rustFloat = (value: number) => (Number.isInteger(value) && Math.abs(value) >= 1e21 ? BigInt(value).toString() : String(value));

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"' || ch === "'") {
      const start = i;
      let text = '';
      i++;
      while (i < source.length && source[i] !== ch) {
        if (source[i] === '\\' && i + 1 < source.length) i++;
        text += source[i];
        i++;
      }
      if (i >= source.length)
        throw new FilterSyntaxError(
          `Expression \`${source.slice(start)}\` is missing the following closing delimiter: \`${ch}\`.`,
          start,
          source.length,
          source,
        );
      i++;
      tokens.push({ kind: 'string', text, start, end: i });
    } else if ('()[],'.includes(ch)) {
      tokens.push({ kind: 'punct', text: ch, start: i, end: i + 1 });
      i++;
    } else if ('=!<>'.includes(ch)) {
      const two = source.slice(i, i + 2);
      const text = ['!=', '>=', '<='].includes(two) ? two : ch;
      if (text === '!')
        throw new FilterSyntaxError(`Was expecting an operation ${operations} at \`${source.slice(i)}\`.`, i, i + 1, source);
      tokens.push({ kind: 'op', text, start: i, end: i + text.length });
      i += text.length;
    } else {
      const start = i;
      while (i < source.length && !/[\s()[\],=!<>"']/.test(source[i]!)) i++;
      tokens.push({ kind: 'word', text: source.slice(start, i), start, end: i });
    }
  }
  return tokens;
}

/** Conditions counted so far across one caller's filter (all entries of the array form); null: not counted. */
type ConditionBudget = { used: number } | null;

class Parser {
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly source: string,
    private readonly budget: ConditionBudget,
  ) {}

  parse(): FilterNode {
    if (this.tokens.length === 0) return { type: 'true' };
    const node = this.or(0);
    const extra = this.peek();
    if (extra)
      this.failAt(
        `Found unexpected characters at the end of the filter: \`${this.source.slice(extra.start)}\`. You probably forgot an \`OR\` or an \`AND\` rule.`,
        extra.start,
      );
    return node;
  }

  private peek(offset = 0) {
    return this.tokens[this.pos + offset];
  }
  private isWord(text: string, offset = 0) {
    const token = this.peek(offset);
    return token?.kind === 'word' && token.text === text;
  }
  private fail(message: string, token?: Token): never {
    const start = token?.start ?? this.source.length;
    throw new FilterSyntaxError(message, start, token?.end ?? this.source.length, this.source);
  }
  /** An error about everything from `start` to the end of the filter. */
  private failAt(message: string, start: number): never {
    throw new FilterSyntaxError(message, start, this.source.length, this.source);
  }

  /** Depth is counted as Meilisearch counts it: one per OR, AND, NOT and bracket level. */
  private checkDepth(depth: number) {
    if (depth > maxFilterDepth) this.failAt(depthMessage, this.peek()?.start ?? this.source.length);
  }

  private or(depth: number): FilterNode {
    this.checkDepth(depth);
    const children = [this.and(depth + 1)];
    while (this.isWord('OR')) {
      this.pos++;
      children.push(this.and(depth + 1));
    }
    return children.length === 1 ? children[0]! : { type: 'or', children };
  }

  private and(depth: number): FilterNode {
    this.checkDepth(depth);
    const children = [this.not(depth + 1)];
    while (this.isWord('AND')) {
      this.pos++;
      children.push(this.not(depth + 1));
    }
    return children.length === 1 ? children[0]! : { type: 'and', children };
  }

  private not(depth: number): FilterNode {
    this.checkDepth(depth);
    if (this.isWord('NOT')) {
      this.pos++;
      return { type: 'not', child: this.not(depth + 1) };
    }
    return this.primary(depth + 1);
  }

  private primary(depth: number): FilterNode {
    this.checkDepth(depth);
    const token = this.peek();
    if (!token) this.fail(`Was expecting an operation ${operations} but instead got nothing.`);
    if (token.kind === 'punct' && token.text === '(') {
      this.pos++;
      const node = this.or(depth + 1);
      const close = this.peek();
      if (!close || close.text !== ')')
        this.failAt(`Expression \`${this.source.slice(token.start)}\` is missing the following closing delimiter: \`)\`.`, token.start);
      this.pos++;
      return node;
    }
    this.countCondition(token);
    if (token.kind === 'word' && token.text === '_geoRadius') return this.geoRadius();
    if (token.kind === 'word' && token.text === '_geoBoundingBox') return this.geoBoundingBox();
    return this.condition();
  }

  private countCondition(token: Token) {
    if (this.budget && ++this.budget.used > filterLimits.conditions) {
      this.failAt(`The filter exceeded the maximum of ${filterLimits.conditions} conditions. ${rewriteHint}`, token.start);
    }
  }

  /** Where Meilisearch's geo errors start: the condition, or the filter's start when it is the first. */
  private conditionStart(token: Token) {
    return this.pos === 0 ? 0 : token.start;
  }

  /** `(` right after the function name, then numbers (or `[`-lists of them when `nested`), then `)`; null when malformed. */
  private geoArguments(nested: boolean): Token[][] | null {
    const name = this.peek()!;
    const open = this.peek(1);
    if (open?.text !== '(' || open.start !== name.end) return null;
    this.pos += 2;
    const groups: Token[][] = [];
    for (;;) {
      const group = nested ? this.bracketedNumbers() : this.numbers(')');
      if (!group) return null;
      groups.push(group);
      const next = this.peek();
      this.pos++;
      if (next?.text === ')') return groups;
      if (!nested || next?.text !== ',') return null;
    }
  }

  /** Numbers separated by commas, up to (and not past) `close`. */
  private numbers(close: string): Token[] | null {
    const numbers: Token[] = [];
    for (;;) {
      const token = this.peek();
      if (token?.kind !== 'word' || !floatPattern.test(token.text)) return null;
      numbers.push(token);
      this.pos++;
      if (this.peek()?.text !== ',') break;
      this.pos++;
    }
    return this.peek()?.text === close ? numbers : null;
  }

  private bracketedNumbers(): Token[] | null {
    if (this.peek()?.text !== '[') return null;
    this.pos++;
    const numbers = this.numbers(']');
    if (numbers) this.pos++;
    return numbers;
  }

  private geoRadius(): FilterNode {
    const name = this.peek()!;
    const start = this.conditionStart(name);
    const args = this.geoArguments(false);
    if (!args) this.failAt(geoRadiusUsage, start);
    // Meilisearch counts the arguments once the brackets are read, and points past them.
    if (args[0]!.length !== 3) this.failAt(geoRadiusUsage, this.tokens[this.pos - 1]!.end);
    const [lat, lng, radius] = args[0]! as [Token, Token, Token];
    const node: GeoFilterNode = { type: 'geoRadius', lat: Number(lat.text), lng: Number(lng.text), radius: Number(radius.text) };
    const invalid = this.nonFinite(lat, lng) ?? this.badLatitude(lat) ?? this.badLongitude(lng) ?? this.nonFinite(radius);
    return invalid ? { ...node, invalid } : node;
  }

  private geoBoundingBox(): FilterNode {
    const name = this.peek()!;
    const start = this.conditionStart(name);
    const args = this.geoArguments(true);
    if (!args) this.failAt(geoBoundingBoxUsage, start);
    if (args.length !== 2 || args[0]!.length !== 2 || args[1]!.length !== 2)
      this.failAt(geoBoundingBoxUsage, this.tokens[this.pos - 1]!.end);
    const [[top, right], [bottom, left]] = args as [[Token, Token], [Token, Token]];
    const node: GeoFilterNode = {
      type: 'geoBoundingBox',
      top: Number(top.text),
      right: Number(right.text),
      bottom: Number(bottom.text),
      left: Number(left.text),
    };
    const invalid =
      this.nonFinite(top, right, bottom, left) ??
      this.badLatitude(top) ??
      this.badLongitude(right) ??
      this.badLatitude(bottom) ??
      this.badLongitude(left) ??
      (node.top < node.bottom
        ? this.errorAt(`The top latitude \`${rustFloat(node.top)}\` is below the bottom latitude \`${rustFloat(node.bottom)}\`.`, left)
        : undefined);
    return invalid ? { ...node, invalid } : node;
  }

  /** Meilisearch's message for a geo argument, pointing at it: the argument's own span, as its checks give. */
  private errorAt(message: string, token: Token): string {
    return new FilterSyntaxError(message, token.start, token.end, this.source).message;
  }

  private nonFinite(...tokens: Token[]): string | undefined {
    const token = tokens.find((candidate) => !Number.isFinite(Number(candidate.text)));
    return token && this.errorAt('Non finite floats are not supported', token);
  }

  private badLatitude(token: Token): string | undefined {
    const lat = Number(token.text);
    return lat >= -90 && lat <= 90
      ? undefined
      : this.errorAt(`Bad latitude \`${rustFloat(lat)}\`. Latitude must be contained between -90 and 90 degrees. `, token);
  }

  private badLongitude(token: Token): string | undefined {
    const lng = Number(token.text);
    return lng >= -180 && lng <= 180
      ? undefined
      : this.errorAt(`Bad longitude \`${rustFloat(lng)}\`. Longitude must be contained between -180 and 180 degrees. `, token);
  }

  /** Words a value can never be: the geo functions, which Meilisearch tells apart from a mistyped value. */
  private checkNotGeo(token: Token) {
    if (token.kind !== 'word') return;
    const text = token.text;
    const reserved = text.startsWith('_geoPoint')
      ? '_geoPoint'
      : text.startsWith('_geoDistance')
        ? '_geoDistance'
        : text === '_geo'
          ? '_geo'
          : null;
    if (reserved) this.failAt(reservedGeo(reserved), token.start);
    if (text === '_geoRadius') this.failAt("The `_geoRadius` filter is an operation and can't be used as a value.", token.start);
    if (text === '_geoBoundingBox') this.failAt("The `_geoBoundingBox` filter is an operation and can't be used as a value.", token.start);
  }

  private value(): string {
    const token = this.peek();
    if (token) this.checkNotGeo(token);
    if (
      !token ||
      (token.kind !== 'word' && token.kind !== 'string') ||
      (token.kind === 'word' && ['AND', 'OR', 'TO'].includes(token.text))
    ) {
      this.fail(`Was expecting a value but instead got ${token ? `\`${token.text}\`` : 'nothing'}.`, token);
    }
    this.pos++;
    return token.text;
  }

  private condition(): FilterNode {
    const attrToken = this.peek()!;
    this.checkNotGeo(attrToken);
    if (attrToken.kind !== 'word' && attrToken.kind !== 'string')
      this.fail(`Was expecting an operation ${operations} at \`${this.source.slice(attrToken.start)}\`.`, attrToken);
    this.pos++;
    const attribute = attrToken.text;
    const next = this.peek();
    if (!next) this.fail(`Was expecting an operation ${operations} at \`${this.source.slice(attrToken.start)}\`.`, attrToken);
    if (next.kind === 'op') {
      this.pos++;
      const value = this.value();
      return { type: 'compare', attribute, op: next.text as '=', value };
    }
    if (next.kind === 'word') {
      if (next.text === 'IN') {
        this.pos++;
        return { type: 'in', attribute, values: this.list() };
      }
      if (next.text === 'EXISTS') {
        this.pos++;
        return { type: 'exists', attribute };
      }
      if (next.text === 'NOT' && this.isWord('IN', 1)) {
        this.pos += 2;
        return { type: 'not', child: { type: 'in', attribute, values: this.list() } };
      }
      if (next.text === 'NOT' && this.isWord('EXISTS', 1)) {
        this.pos += 2;
        return { type: 'not', child: { type: 'exists', attribute } };
      }
      if (next.text === 'IS') {
        this.pos++;
        const negate = this.isWord('NOT');
        if (negate) this.pos++;
        const kind = this.peek();
        if (!kind || (kind.text !== 'NULL' && kind.text !== 'EMPTY'))
          this.fail(`Was expecting an operation ${operations} at \`${this.source.slice(next.start)}\`.`, next);
        this.pos++;
        const node: FilterNode = kind.text === 'NULL' ? { type: 'null', attribute } : { type: 'empty', attribute };
        return negate ? { type: 'not', child: node } : node;
      }
      // `attr from TO to`
      if (this.isWord('TO', 1)) {
        const from = this.value();
        this.pos++;
        const to = this.value();
        return { type: 'range', attribute, from, to };
      }
    }
    this.fail(`Was expecting an operation ${operations} at \`${this.source.slice(attrToken.start)}\`.`, attrToken);
  }

  private list(): string[] {
    const open = this.peek();
    if (!open || open.text !== '[') this.fail(`Expected \`[\` after \`IN\` keyword.`, open);
    this.pos++;
    const values: string[] = [];
    while (this.peek() && this.peek()!.text !== ']') {
      values.push(this.value());
      if (this.peek()?.text === ',') this.pos++;
      else break;
    }
    const close = this.peek();
    if (!close || close.text !== ']') this.fail(`Expected matching \`]\` after the list of field names given to \`IN[\``, open);
    this.pos++;
    return values;
  }
}

/** One expression, with Meilisearch's grammar and depth limit but no size limit: the platform's own rules. */
export function parseFilterExpression(source: string, budget: ConditionBudget = null): FilterNode {
  return new Parser(tokenize(source), source, budget).parse();
}

/**
 * A filter as a caller sends it, within filterLimits: one expression, or the array form (outer AND,
 * inner arrays OR), where an empty expression adds nothing, as in Meilisearch.
 */
export function parseFilter(filter: string | (string | string[])[] | undefined | null): FilterNode {
  if (filter === undefined || filter === null) return { type: 'true' };
  const characters = typeof filter === 'string' ? filter.length : filter.flat().reduce((sum, item) => sum + item.length, 0);
  if (characters > filterLimits.characters) {
    throw new FilterSyntaxError(
      `The filter exceeded the maximum length of ${filterLimits.characters} characters. ${rewriteHint}`,
      0,
      characters,
    );
  }
  const budget = { used: 0 };
  if (typeof filter === 'string') return parseFilterExpression(filter, budget);
  const given = (node: FilterNode) => node.type !== 'true';
  const children = filter.flatMap((item): FilterNode[] => {
    if (!Array.isArray(item)) return [parseFilterExpression(item, budget)].filter(given);
    const any = item.map((expression) => parseFilterExpression(expression, budget)).filter(given);
    return any.length > 1 ? [{ type: 'or', children: any }] : any;
  });
  return children.length === 0 ? { type: 'true' } : children.length === 1 ? children[0]! : { type: 'and', children };
}

/** Attributes a filter's conditions name, to check them against the filterable attributes (geo conditions: geoConditions). */
export function filterAttributes(node: FilterNode, into = new Set<string>()): Set<string> {
  switch (node.type) {
    case 'and':
    case 'or':
      node.children.forEach((child) => filterAttributes(child, into));
      break;
    case 'not':
      filterAttributes(node.child, into);
      break;
    case 'true':
    case 'geoRadius':
    case 'geoBoundingBox':
      break;
    default:
      into.add(node.attribute);
  }
  return into;
}

/** The `_geoRadius` and `_geoBoundingBox` conditions of a filter, in the order Meilisearch checks them. */
export function geoConditions(node: FilterNode, into: GeoFilterNode[] = []): GeoFilterNode[] {
  switch (node.type) {
    case 'and':
    case 'or':
      node.children.forEach((child) => geoConditions(child, into));
      break;
    case 'not':
      geoConditions(node.child, into);
      break;
    case 'geoRadius':
    case 'geoBoundingBox':
      into.push(node);
      break;
    default:
  }
  return into;
}
