import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { carPhotoMaxBytes, carPhotoOriginal, carPhotoUrl, processCarPhoto } from './car-photos';
import { ImageRefused, processLogo } from './site-images';

const now = 1_750_000_000_000;

/** A photo of one colour, `width` × `height`, in `format`. */
const photo = (width: number, height: number, format: 'png' | 'jpeg' | 'webp' | 'gif', background = '#3366aa') =>
  sharp({ create: { width, height, channels: 3, background } })
    .toFormat(format)
    .toBuffer();

/** Red on the left half, blue on the right, stored sideways as a phone does: EXIF orientation 6 (turn 90° clockwise to show). */
async function sidewaysPhoto(): Promise<Buffer> {
  const left = await sharp({ create: { width: 150, height: 200, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** The colour of the pixel at (x, y). */
async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

const refusal = (upload: Buffer) =>
  processCarPhoto(upload, 1, now).then(
    () => 'accepted',
    (error: unknown) => (error instanceof ImageRefused ? error.message : `failed: ${String(error)}`),
  );

describe('an uploaded car photo', () => {
  it.each(['jpeg', 'png', 'webp'] as const)(
    'takes a %s, keeps a photo smaller than the box at its own size and stores it as a JPEG named by its hash',
    async (format) => {
      const image = await processCarPhoto(await photo(1200, 800, format), 7, now);
      expect(image).toMatchObject({ site_id: 7, kind: 'car-photo', content_type: 'image/jpeg', width: 1200, height: 800, created_at: now });
      expect(image.hash).toBe(createHash('sha256').update(image.bytes).digest('hex').slice(0, 32));
      expect(image.hash).toMatch(/^[0-9a-f]{32}$/);
      expect(await sharp(image.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 800 });
      expect(carPhotoUrl(image.hash)).toBe(`/img/car/${image.hash}.jpg`);
    },
  );

  it.each([
    [4000, 3000, 2560, 1920],
    [3000, 4000, 1920, 2560],
    [6000, 1000, 2560, 427],
  ])('shrinks a %i × %i photo to fit 2560 × 2560 (%i × %i)', async (width, height, storedWidth, storedHeight) => {
    const image = await processCarPhoto(await photo(width, height, 'jpeg'), 1, now);
    expect([image.width, image.height]).toEqual([storedWidth, storedHeight]);
    expect(await sharp(image.bytes).metadata()).toMatchObject({ width: storedWidth, height: storedHeight });
  });

  it('turns a phone’s sideways photo upright by its EXIF orientation and keeps none of its metadata', async () => {
    const upload = await sidewaysPhoto();
    expect(await sharp(upload).metadata()).toMatchObject({ width: 300, height: 200, orientation: 6 });
    const image = await processCarPhoto(upload, 1, now);
    expect([image.width, image.height]).toEqual([200, 300]);
    const stored = await sharp(image.bytes).metadata();
    expect([stored.width, stored.height, stored.orientation, stored.exif, stored.icc]).toEqual([200, 300, undefined, undefined, undefined]);
    // Turned clockwise: the left (red) half is now on top.
    const [top, bottom] = [await pixel(image.bytes, 100, 20), await pixel(image.bytes, 100, 280)];
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(50);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(50);
  });

  it('puts a transparent PNG on white, not black', async () => {
    const clear = await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const image = await processCarPhoto(clear, 1, now);
    expect((await pixel(image.bytes, 20, 15)).every((channel) => channel > 245)).toBe(true);
  });

  it('names the same photo uploaded twice the same (it is stored once)', async () => {
    const upload = await photo(640, 480, 'png');
    expect((await processCarPhoto(upload, 1, now)).hash).toBe((await processCarPhoto(upload, 2, now + 1)).hash);
  });

  it('refuses an SVG, a GIF and a phone’s HEIC, asking for a JPEG, PNG or WebP', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const xmlSvg = Buffer.from(`\ufeff  <?xml version="1.0"?>${svg.toString()}`);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)]);
    for (const upload of [svg, xmlSvg, await photo(64, 48, 'gif'), heic])
      expect(await refusal(upload)).toBe('Upload a JPEG, PNG or WebP photo.');
  });

  it('refuses a file that is no photo, a photo cut short in its upload, and one that only begins like a JPEG, as unreadable', async () => {
    const noise = Buffer.from(Array.from({ length: 400 * 300 * 3 }, (_, i) => (i * 7919) % 251));
    const full = await sharp(noise, { raw: { width: 400, height: 300, channels: 3 } })
      .jpeg()
      .toBuffer();
    const cut = full.subarray(0, Math.floor(full.length * 0.6));
    const headerOnly = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
    for (const upload of [Buffer.from('MZ this is not a picture at all'), cut, headerOnly])
      expect(await refusal(upload)).toBe('That file is not a photo we can read. Upload a JPEG, PNG or WebP.');
    expect(await refusal(full)).toBe('accepted');
    expect(await refusal(Buffer.alloc(0))).toBe('Choose a photo to upload.');
  });

  it('refuses a photo over 15 MB before reading it', async () => {
    const large = Buffer.concat([await photo(64, 48, 'jpeg'), Buffer.alloc(carPhotoMaxBytes, 1)]);
    expect(carPhotoMaxBytes).toBe(15 * 1024 * 1024);
    expect(await refusal(large)).toBe('The photo is larger than 15 MB.');
  });

  it('refuses a photo of more than 50 million pixels without decoding it, but takes a 48 MP one', async () => {
    /** A small JPEG whose header says it is `width` × `height` (the pixels are never read). */
    const claiming = async (width: number, height: number) => {
      const bytes = await photo(16, 16, 'jpeg');
      const frame = bytes.indexOf(Buffer.from([0xff, 0xc0]));
      bytes.writeUInt16BE(height, frame + 5);
      bytes.writeUInt16BE(width, frame + 7);
      return bytes;
    };
    expect(await refusal(await claiming(10_000, 5_001))).toBe('The photo has more than 50 million pixels.');
    // (Its missing pixels are only a warning to the JPEG decoder, as some cameras' harmless quirks are, and come out grey.)
    expect(await refusal(await claiming(8_000, 6_000))).toBe('accepted');
  });
});

describe('the original of a stored car photo', () => {
  it('is the bytes of a car photo’s row, and nothing for no row or a logo’s', async () => {
    const car = await processCarPhoto(await photo(320, 240, 'jpeg'), 1, now);
    const logo = await processLogo(await photo(320, 80, 'png'), 1, now);
    expect(carPhotoOriginal(car)).toBe(car.bytes);
    expect(carPhotoOriginal(logo)).toBeNull();
    expect(carPhotoOriginal(null)).toBeNull();
  });
});
