import { vehicleCategories } from '@dealer/contracts/car';
import { servedImageQualities, servedImageWidths, vehiclePhotoPath } from '@dealer/rules/images';
import { catalogue } from './catalogue';
import { namedBodySlugs, namedColourSlugs } from './car-photo';

/**
 * What the image endpoint draws: the photos the demo stock can have, and the names the drawing
 * knows. Anything else would only fill the cache and the CPU with pictures nobody links to.
 */
export type PhotoVocabulary = { categories: ReadonlySet<string>; bodies: ReadonlySet<string>; colours: ReadonlySet<string> };

/** Body and colour as the seed writes them into photo paths (`vehiclePhotoPath`), for every model and colour in the catalogue. */
function cataloguePhotoSegments(): { bodies: string[]; colours: string[] } {
  const bodies: string[] = [];
  const colours: string[] = [];
  for (const kind of Object.values(catalogue)) {
    for (const model of kind.models) {
      for (const [colour] of kind.colours) {
        const [, , , , body = '', colourSlug = ''] = vehiclePhotoPath({ category: 'car', body: model.body, colour, variant: 0 }).split('/');
        bodies.push(body);
        colours.push(colourSlug);
      }
    }
  }
  return { bodies, colours };
}

export function demoPhotoVocabulary(): PhotoVocabulary {
  const fromCatalogue = cataloguePhotoSegments();
  return {
    categories: new Set(vehicleCategories),
    bodies: new Set([...namedBodySlugs, ...fromCatalogue.bodies]),
    colours: new Set([...namedColourSlugs, ...fromCatalogue.colours]),
  };
}

/** Widths and qualities the pages ask for, from the one list the browser's image URLs are built from. */
export const photoWidths = servedImageWidths;
export const photoQualities = servedImageQualities;
