import { describe, expect, it } from 'vitest';
import { cardWidths, deviceWidths, fixedLoaderMaxWidth, imageSrcSet, imageUrl, servedImageWidth, servedImageWidths } from './images';

describe('image widths the endpoint serves', () => {
  it('serves every width of the card and device ladders and the fixed-size loader', () => {
    for (const width of [...cardWidths, ...deviceWidths, fixedLoaderMaxWidth, 160, 960]) expect(servedImageWidths).toContain(width);
  });

  it.each([
    [160, 160],
    [100, 160],
    [400, 480],
    [1199.6, 1200],
    [5000, 3840],
  ])('a picture wanted %d px wide is asked for at %d px', (wanted, served) => {
    expect(servedImageWidth(wanted)).toBe(served);
    expect(imageUrl('/img/vehicle/car/suv/white/1.jpg', wanted)).toBe(`/img/vehicle/car/suv/white/1.jpg?w=${served}&q=75`);
  });

  it('lists each served width once in a srcset, with the width it really is', () => {
    expect(imageSrcSet('/p.jpg', [300, 320, 640], 80)).toBe('/p.jpg?w=320&q=80 320w, /p.jpg?w=640&q=80 640w');
  });
});
