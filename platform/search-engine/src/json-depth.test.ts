import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, maxJsonDepth } from './json-depth';

describe('how deeply JSON text nests', () => {
  const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it.each<[string, string, boolean]>([
    ['a flat object', '{"a":1,"b":[1,2,3]}', false],
    ['nothing nested', '"just text"', false],
    [`arrays ${maxJsonDepth} deep`, arrays(maxJsonDepth), false],
    [`arrays ${maxJsonDepth + 1} deep`, arrays(maxJsonDepth + 1), true],
    ['objects 10,000 deep', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, true],
    ['brackets inside a string', JSON.stringify({ a: '['.repeat(1000) }), false],
    ['escaped quotes inside a string', JSON.stringify({ a: `\\"${'{'.repeat(100)}` }), false],
    ['siblings, each shallow', `[${Array.from({ length: 100 }, () => arrays(10)).join(',')}]`, false],
    ['unbalanced text left to the parser', ']]]]{', false],
  ])('%s: deeper than the limit is %s', (_case, text, deeper) => {
    expect(jsonNestsDeeperThan(text)).toBe(deeper);
  });
});
