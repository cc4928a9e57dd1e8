import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, siteRequest, type TestPlatform } from '../../testing/test-platform';

const slug = 'coastal-motorcycles';
const picture = (width: number, height: number, format: 'png' | 'jpeg' | 'webp') =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 30, b: 40, alpha: 0.5 } } })
    .toFormat(format)
    .toBuffer();

describe('a site’s logo uploaded in the dealer console', () => {
  let platform: TestPlatform;
  let admin: string;
  let staff: string;
  beforeAll(async () => {
    platform = await createTestPlatform();
    admin = await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`);
    staff = await consoleSignIn(platform.app, platform.ctx.db, `staff@${slug}.localhost`);
  }, 60_000);
  afterAll(async () => platform?.close());

  const upload = (body: Buffer | string, contentType: string, cookie = admin) =>
    consoleRequest(platform.app, 'PUT', `/api/console/sites/${slug}/logo`, {
      cookie,
      payload: body,
      headers: { 'content-type': contentType },
    });
  const shopLogo = async () => (await siteRequest(platform.app, slug, 'GET', '/api/site')).json<{ logo: { url: string } }>().logo.url;

  it('takes a PNG, shrinks it to fit the header’s box and shows it in the shop’s header from the next page', async () => {
    const res = await upload(await picture(1800, 600, 'png'), 'image/png');
    expect(res.statusCode, res.body).toBe(200);
    const { logo, uploaded } = res.json<{ logo: string; uploaded: boolean }>();
    expect(uploaded).toBe(true);
    expect(logo).toMatch(/^\/img\/site\/[0-9a-f]{32}\.png$/);
    expect(await shopLogo()).toBe(logo);
    const served = await siteRequest(platform.app, slug, 'GET', logo);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 600, 200, true]);
    const audit = (await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/audit`, { cookie: admin })).json<{
      entries: { target: string; after: { logo?: string } }[];
    }>().entries;
    expect(audit[0]).toMatchObject({ target: 'logo', after: { logo } });
  });

  it.each(['jpeg', 'webp'] as const)('takes a %s and keeps a small one at its own size', async (format) => {
    const res = await upload(await picture(320, 80, format), `image/${format}`);
    expect(res.statusCode, res.body).toBe(200);
    const served = await siteRequest(platform.app, slug, 'GET', res.json<{ logo: string }>().logo);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 320, height: 80 });
  });

  it('refuses an SVG, a file that is no picture, and one over 2 MB, saying why, and keeps the logo it had', async () => {
    const before = await shopLogo();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    expect((await upload(svg, 'image/svg+xml')).statusCode).toBe(415);
    const svgAsPng = await upload(Buffer.from(svg), 'image/png');
    expect([svgAsPng.statusCode, svgAsPng.json<{ fields: object }>().fields]).toEqual([
      400,
      { logo: 'Upload a PNG, JPEG or WebP picture.' },
    ]);
    const notAPicture = await upload(Buffer.from('MZ this is not a picture at all'), 'image/png');
    expect(notAPicture.json<{ message: string }>().message).toBe('That file is not a picture we can read. Upload a PNG, JPEG or WebP.');
    expect((await upload(Buffer.alloc(2 * 1024 * 1024 + 1, 1), 'image/png')).statusCode).toBe(413);
    expect(await shopLogo()).toBe(before);
  });

  it('goes back to the drawn wordmark, which follows the site’s new name', async () => {
    const res = await consoleRequest(platform.app, 'DELETE', `/api/console/sites/${slug}/logo`, { cookie: admin });
    expect(res.json()).toEqual({ logo: `/img/logo/${slug}.svg`, uploaded: false });
    expect(await shopLogo()).toBe(`/img/logo/${slug}.svg`);
    const renamed = await consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/settings`, {
      cookie: admin,
      payload: { name: 'Coastal Moto Co' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await siteRequest(platform.app, slug, 'GET', `/img/logo/${slug}.svg`)).body).toContain('Coastal Moto Co');
  });

  it('lets staff see the logo but not change it, and no one else’s site', async () => {
    expect((await upload(await picture(100, 40, 'png'), 'image/png', staff)).statusCode).toBe(403);
    const other = await consoleRequest(platform.app, 'PUT', '/api/console/sites/kiwi-motors/logo', {
      cookie: admin,
      payload: await picture(100, 40, 'png'),
      headers: { 'content-type': 'image/png' },
    });
    expect(other.statusCode).toBe(403);
  });

  it('refuses a stranger before reading what they send, and takes no large body where no picture is expected', async () => {
    const anonymous = await upload(Buffer.alloc(3 * 1024 * 1024, 1), 'image/png', '');
    expect(anonymous.statusCode).toBe(401);
    const onDelete = await consoleRequest(platform.app, 'DELETE', `/api/console/sites/${slug}/logo`, {
      cookie: admin,
      payload: Buffer.alloc(1_100_000, 1),
      headers: { 'content-type': 'image/png' },
    });
    expect(onDelete.statusCode).toBe(413);
  });

  it('answers 404 for a picture it does not hold', async () => {
    expect((await siteRequest(platform.app, slug, 'GET', `/img/site/${'0'.repeat(32)}.png`)).statusCode).toBe(404);
    expect((await siteRequest(platform.app, slug, 'GET', '/img/site/../../etc.png')).statusCode).toBe(404);
  });
});
