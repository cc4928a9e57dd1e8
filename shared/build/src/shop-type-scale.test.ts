// The stylesheets the build inlines into the shop's pages keep to the design system's type scale
// (shared/ui/src/type-scale.ts): each size and weight a page lays out is a font Chromium sets up in
// its first layout (issue 25). Read here, in Node, since the browser code's tests have no file system.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { offTypeScale } from '../../ui/src/type-scale';

/** Every stylesheet a shop page can lay out: the design system's, the shell's and each remote's. */
const shopStylesheets = [
  'shared/ui/src/styles.css',
  'shell/src/shell.css',
  'mf-search/src/search-page.css',
  'mf-vehicle/src/vehicle-detail-page.css',
  'mf-chat/src/chat-widget.css',
  'mf-checkout/src/checkout-page.css',
  'mf-garage/src/garage-page.css',
  'shell/src/federation/route-placeholder.css',
];

describe("the shop's stylesheets", () => {
  it.each(shopStylesheets)('%s sets no size or weight off the type scale', (file) => {
    expect(offTypeScale(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8'))).toEqual([]);
  });
});
