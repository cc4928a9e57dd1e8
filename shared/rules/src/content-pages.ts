/** The title a content page (a CMS path such as `fleet-service`) shows in its heading, the document title and the breadcrumbs. */
const knownTitles: Record<string, string> = {
  blog: 'Latest News',
  news: 'Latest News',
  'vehicle-parts-and-accessories': 'Parts and Accessories',
  'privacy-policy': 'Privacy Policy',
  'terms-and-conditions': 'Terms and Conditions',
  'special-offers': 'Special Offers',
  'find/rental-cars': 'Rental Cars',
  eofy: 'End of Financial Year Sale',
  'our-locations': 'Our Locations',
};

/** A readable title for a content page path such as 'fleet-service' → 'Fleet Service'. */
export function contentPageTitle(page: string): string {
  const known = knownTitles[page];
  if (known) return known;
  const last = page.split('/').pop() ?? page;
  return last
    .split('-')
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}
