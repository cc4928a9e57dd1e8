/**
 * Meilisearch filter expressions: parse into a tree, with errors that point at the column,
 * in the wording Meilisearch uses. Keywords are upper-case only, as in Meilisearch.
 */
export type FilterValue = string;
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
  | { type: 'true' };

export class FilterSyntaxError extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
    source: string,
  ) {
    super(`${message}\n${start + 1}:${Math.max(end, start + 1)} ${source}`);
  }
}

type Token = { kind: 'word' | 'string' | 'op' | 'punct'; text: string; start: number; end: number };

const operations = '`=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `_geoRadius`, or `_geoBoundingBox`';

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
      if (i >= source.length) throw new FilterSyntaxError(`Expression \`${source.slice(start)}\` is missing the following closing delimiter: \`${ch}\`.`, start, source.length, source);
      i++;
      tokens.push({ kind: 'string', text, start, end: i });
    } else if ('()[],'.includes(ch)) {
      tokens.push({ kind: 'punct', text: ch, start: i, end: i + 1 });
      i++;
    } else if ('=!<>'.includes(ch)) {
      const two = source.slice(i, i + 2);
      const text = ['!=', '>=', '<='].includes(two) ? two : ch;
      if (text === '!') throw new FilterSyntaxError(`Was expecting an operation ${operations} at \`${source.slice(i)}\`.`, i, i + 1, source);
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

class Parser {
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly source: string,
  ) {}

  parse(): FilterNode {
    if (this.tokens.length === 0) return { type: 'true' };
    const node = this.or();
    const extra = this.peek();
    if (extra) this.fail(`Found unexpected characters at the end of the filter: \`${this.source.slice(extra.start)}\`. You probably forgot an \`OR\` or an \`AND\` rule.`, extra);
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

  private or(): FilterNode {
    const children = [this.and()];
    while (this.isWord('OR')) {
      this.pos++;
      children.push(this.and());
    }
    return children.length === 1 ? children[0]! : { type: 'or', children };
  }

  private and(): FilterNode {
    const children = [this.not()];
    while (this.isWord('AND')) {
      this.pos++;
      children.push(this.not());
    }
    return children.length === 1 ? children[0]! : { type: 'and', children };
  }

  private not(): FilterNode {
    if (this.isWord('NOT')) {
      this.pos++;
      return { type: 'not', child: this.not() };
    }
    return this.primary();
  }

  private primary(): FilterNode {
    const token = this.peek();
    if (!token) this.fail(`Was expecting an operation ${operations} at \`\`.`);
    if (token.kind === 'punct' && token.text === '(') {
      this.pos++;
      const node = this.or();
      const close = this.peek();
      if (!close || close.text !== ')') this.fail(`Expression \`${this.source.slice(token.start)}\` is missing the following closing delimiter: \`)\`.`, token);
      this.pos++;
      return node;
    }
    return this.condition();
  }

  private value(): string {
    const token = this.peek();
    if (!token || (token.kind !== 'word' && token.kind !== 'string') || (token.kind === 'word' && ['AND', 'OR', 'TO'].includes(token.text))) {
      this.fail(`Was expecting a value but instead got ${token ? `\`${token.text}\`` : 'nothing'}.`, token);
    }
    this.pos++;
    return token.text;
  }

  private condition(): FilterNode {
    const attrToken = this.peek()!;
    if (attrToken.kind !== 'word' && attrToken.kind !== 'string') this.fail(`Was expecting an operation ${operations} at \`${this.source.slice(attrToken.start)}\`.`, attrToken);
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
        if (!kind || (kind.text !== 'NULL' && kind.text !== 'EMPTY')) this.fail(`Was expecting an operation ${operations} at \`${this.source.slice(next.start)}\`.`, next);
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

export function parseFilterExpression(source: string): FilterNode {
  return new Parser(tokenize(source), source).parse();
}

/** The array form: outer AND, inner arrays OR. */
export function parseFilter(filter: string | (string | string[])[] | undefined | null): FilterNode {
  if (filter === undefined || filter === null) return { type: 'true' };
  if (typeof filter === 'string') return parseFilterExpression(filter);
  const children = filter.map((item) =>
    Array.isArray(item) ? ({ type: 'or', children: item.map(parseFilterExpression) } as FilterNode) : parseFilterExpression(item),
  );
  return { type: 'and', children };
}

/** Attributes a filter mentions, to check them against the filterable attributes. */
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
      break;
    default:
      into.add(node.attribute);
  }
  return into;
}
