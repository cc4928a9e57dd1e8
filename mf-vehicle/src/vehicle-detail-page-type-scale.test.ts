import { expect, it } from 'vitest';
import stylesheet from './vehicle-detail-page.css?raw';
import { offTypeScale } from '@dealer/ui/type-scale';

it("keeps the car page's stylesheet on the design system's type scale", () => {
  expect(offTypeScale(stylesheet)).toEqual([]);
});
