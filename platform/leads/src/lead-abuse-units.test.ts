import { describe, expect, it } from 'vitest';
import { ClientHolds } from './client-holds';
import { maxLeadNesting, nestedDeeperThan } from './lead-schema';
import { cleanFileName } from './uploads';

describe('file names shown to the dealer', () => {
  it.each([
    ['a right-to-left override', 'invoice\u202Egpj.exe', 'invoicegpj.exe'],
    ['the other embeddings and overrides', 'a\u202Ab\u202Bc\u202Cd\u202De.png', 'abcde.png'],
    ['isolates', '\u2066x\u2067y\u2068z\u2069.pdf', 'xyz.pdf'],
    ['left-to-right and right-to-left marks, the Arabic letter mark', 'a\u200Eb\u200Fc\u061C.jpg', 'abc.jpg'],
    ['C1 controls', 'scan\u0085\u009B.pdf', 'scan.pdf'],
    ['zero-width spaces and the BOM', '\uFEFFre\u200Bgo.pdf', 'rego.pdf'],
    ['line and paragraph separators', 'a\u2028b\u2029c.png', 'abc.png'],
    ['half of a broken surrogate pair', 'photo\uD83D.jpg', 'photo.jpg'],
  ])('drops %s', (_label, name, clean) => {
    expect(cleanFileName(name)).toBe(clean);
  });

  it('keeps what names are written with: joiners, accents, other scripts, emoji', () => {
    expect(cleanFileName('می\u200Cخواهم.pdf')).toBe('می\u200Cخواهم.pdf');
    expect(cleanFileName('👨\u200D👩\u200D👧 Zoë.jpg')).toBe('👨\u200D👩\u200D👧 Zoë.jpg');
  });

  it('cuts at 120 characters, never inside one', () => {
    expect([...cleanFileName('😀'.repeat(200))]).toHaveLength(120);
    expect(cleanFileName('😀'.repeat(200))).toBe('😀'.repeat(120));
  });
});

describe('how deep a lead nests', () => {
  const nested = (depth: number) => {
    let value: unknown = 'x';
    for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { a: value };
    return value;
  };

  it('counts objects and lists, not the values in them', () => {
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan({}, 0)).toBe(true);
    expect(nestedDeeperThan({ a: 1, b: 'two' }, 1)).toBe(false);
    expect(nestedDeeperThan({ a: [1] }, 1)).toBe(true);
    expect(nestedDeeperThan(nested(maxLeadNesting), maxLeadNesting)).toBe(false);
    expect(nestedDeeperThan(nested(maxLeadNesting + 1), maxLeadNesting)).toBe(true);
  });

  it('walks 100,000 levels without running out of stack', () => {
    expect(nestedDeeperThan(nested(100_000), maxLeadNesting)).toBe(true);
  });
});

describe('booking holds per client', () => {
  const minute = 60_000;

  it('counts up to the cap, then says when the first hold runs out', () => {
    const holds = new ClientHolds(3);
    expect(holds.tryHold('site|a', 1, 30 * minute, 0)).toEqual({ ok: true });
    expect(holds.tryHold('site|a', 2, 40 * minute, 0)).toEqual({ ok: true });
    expect(holds.tryHold('site|a', 3, 50 * minute, 0)).toEqual({ ok: true });
    expect(holds.tryHold('site|a', 4, 60 * minute, 10 * minute)).toEqual({ ok: false, retryAfterMs: 20 * minute });
    // A lead already counted renews; another client is counted on its own.
    expect(holds.tryHold('site|a', 2, 60 * minute, 10 * minute)).toEqual({ ok: true });
    expect(holds.tryHold('site|b', 4, 60 * minute, 10 * minute)).toEqual({ ok: true });
    // Once a hold has run out it no longer counts.
    expect(holds.tryHold('site|a', 5, 70 * minute, 30 * minute)).toEqual({ ok: true });
    expect(holds.leadsOf('site|a', 30 * minute).sort()).toEqual([2, 3, 5]);
  });

  it('stops counting the leads the diary no longer has as held', () => {
    const holds = new ClientHolds(2);
    holds.tryHold('a', 1, 30 * minute, 0);
    holds.tryHold('a', 2, 30 * minute, 0);
    expect(holds.tryHold('a', 3, 30 * minute, 0).ok).toBe(false);
    holds.keepOnly('a', new Set([2]));
    expect(holds.tryHold('a', 3, 30 * minute, 0).ok).toBe(true);
    expect(holds.leadsOf('a', 0).sort()).toEqual([2, 3]);
  });

  it('moves a hold renewed from another address to that address', () => {
    const holds = new ClientHolds(1);
    holds.tryHold('a', 1, 30 * minute, 0);
    expect(holds.tryHold('b', 1, 30 * minute, minute)).toEqual({ ok: true });
    expect(holds.leadsOf('a', minute)).toEqual([]);
    expect(holds.tryHold('a', 2, 30 * minute, minute)).toEqual({ ok: true });
  });

  it('is off with a cap of 0', () => {
    const holds = new ClientHolds(0);
    for (let lead = 1; lead <= 10; lead += 1) expect(holds.tryHold('a', lead, 30 * minute, 0).ok).toBe(true);
  });

  it('remembers a bounded number of clients, forgetting the one seen longest ago', () => {
    const holds = new ClientHolds(1, 30 * minute, 100);
    for (let client = 0; client < 1_000; client += 1) expect(holds.tryHold(`c${client}`, client + 1, 30 * minute, minute).ok).toBe(true);
    expect(holds.clientCount).toBe(100);
    expect(holds.leadsOf('c0', minute)).toEqual([]);
    expect(holds.leadsOf('c999', minute)).toEqual([1_000]);
  });
});
