import { expect, it } from 'vitest';
import stylesheet from './shell.css?raw';
import { offTypeScale } from '@dealer/ui/type-scale';

it("keeps the shell's stylesheet on the design system's type scale", () => {
  expect(offTypeScale(stylesheet)).toEqual([]);
});
