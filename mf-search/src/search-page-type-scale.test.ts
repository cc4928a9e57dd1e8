import { expect, it } from 'vitest';
import stylesheet from './search-page.css?raw';
import { offTypeScale } from '@dealer/ui/type-scale';

it("keeps the search page's stylesheet on the design system's type scale", () => {
  expect(offTypeScale(stylesheet)).toEqual([]);
});
