import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { offTypeScale } from '@dealer/ui/type-scale';

it("keeps the car page's stylesheet on the design system's type scale", () => {
  expect(offTypeScale(readFileSync(new URL('./vehicle-detail-page.css', import.meta.url), 'utf8'))).toEqual([]);
});
