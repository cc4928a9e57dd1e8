/**
 * Deepest nesting of arrays and objects a JSON body may have. Forms and events nest a few levels;
 * thousands of levels only serve to overflow the stack of whatever walks the value recursively
 * (JSON.stringify when it is stored, a schema, a logger), which would answer a 500.
 */
export const maxJsonDepth = 32;

/** Whether JSON text nests arrays and objects deeper than `limit`: one pass over the text, no recursion, before it is parsed. */
export function jsonNestsDeeperThan(text: string, limit = maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limit) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

export const jsonTooDeepMessage = `The JSON body nests arrays or objects more than ${maxJsonDepth} levels deep.`;
