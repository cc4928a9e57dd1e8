import type { FilterNode } from './filter-parser';

type Doc = Record<string, unknown>;

const normalise = (value: string) => value.trim().toLowerCase();

/** The value at an attribute, `a.b` reading into nested objects (a literal `a.b` key wins). */
export function valueAt(doc: Doc, attribute: string): unknown {
  const direct = doc[attribute];
  if (direct !== undefined || attribute in doc) return direct;
  let current: unknown = doc;
  for (const part of attribute.split('.')) {
    if (current === null || typeof current !== 'object' || !(part in (current as Doc))) return undefined;
    current = (current as Doc)[part];
  }
  return current;
}

function equals(actual: unknown, expected: string): boolean {
  if (Array.isArray(actual)) return actual.some((item) => equals(item, expected));
  if (typeof actual === 'number') return expected.trim() !== '' && Number(expected) === actual;
  if (typeof actual === 'boolean') return normalise(expected) === String(actual);
  if (typeof actual === 'string') return normalise(actual) === normalise(expected);
  return false;
}

function compareNumber(actual: unknown, op: '>' | '>=' | '<' | '<=', expected: string): boolean {
  if (Array.isArray(actual)) return actual.some((item) => compareNumber(item, op, expected));
  const limit = Number(expected);
  if (typeof actual !== 'number' || expected.trim() === '' || Number.isNaN(limit)) return false;
  switch (op) {
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
  }
}

export function matchesFilter(node: FilterNode, doc: Doc): boolean {
  switch (node.type) {
    case 'true':
      return true;
    case 'and':
      return node.children.every((child) => matchesFilter(child, doc));
    case 'or':
      return node.children.some((child) => matchesFilter(child, doc));
    case 'not':
      return !matchesFilter(node.child, doc);
    case 'compare': {
      const actual = valueAt(doc, node.attribute);
      if (node.op === '=') return equals(actual, node.value);
      if (node.op === '!=') return !equals(actual, node.value);
      return compareNumber(actual, node.op, node.value);
    }
    case 'range': {
      const actual = valueAt(doc, node.attribute);
      return compareNumber(actual, '>=', node.from) && compareNumber(actual, '<=', node.to);
    }
    case 'in': {
      const actual = valueAt(doc, node.attribute);
      return node.values.some((value) => equals(actual, value));
    }
    case 'exists':
      return valueAt(doc, node.attribute) !== undefined;
    case 'null':
      return valueAt(doc, node.attribute) === null;
    case 'empty': {
      const actual = valueAt(doc, node.attribute);
      if (actual === '' || (Array.isArray(actual) && actual.length === 0)) return true;
      return actual !== null && typeof actual === 'object' && !Array.isArray(actual) && Object.keys(actual).length === 0;
    }
  }
}
