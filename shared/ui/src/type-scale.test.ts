import { describe, expect, it } from 'vitest';
import { offTypeScale } from './type-scale';

describe('the type scale', () => {
  it('finds a size or weight off the scale, and lets the steps, inherit and a clamp from a step pass', () => {
    const css = `.a { font-size: 0.9rem; font-weight: 600 }
      .b { font-size: 0.875rem; font-weight: 700; }
      /* font-size: 3px in a comment is not a rule */
      .c { font-size: clamp(2rem, 4vw, 2.75rem); font-weight: inherit; }
      .d { font-size: clamp(1.75rem, 4vw, 2.75rem); font-size: 13px; }`;
    expect(offTypeScale(css)).toEqual([
      'font-size: 0.9rem',
      'font-weight: 600',
      'font-size: clamp(1.75rem, 4vw, 2.75rem)',
      'font-size: 13px',
    ]);
  });
});
