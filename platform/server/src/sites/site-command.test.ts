import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runPlatformCli, UsageError } from '../platform-cli';
import { createTestPlatform, siteRequest, type TestPlatform } from '../testing/test-platform';

describe('`platform site create`: an operator opens a dealer site from the shell', () => {
  let platform: TestPlatform;
  const saved = { ...process.env };
  beforeAll(async () => {
    platform = await createTestPlatform();
  });
  afterAll(async () => platform?.close());
  afterEach(() => {
    process.env = { ...saved };
  });

  const cli = async (args: string[]) => {
    Object.assign(process.env, { DATA_DIR: platform.ctx.config.dataDir, LOG_LEVEL: 'silent', PORT: '3000' });
    delete process.env.DATABASE_URL;
    delete process.env.PUBLIC_ORIGIN_SUFFIX;
    const lines: string[] = [];
    await runPlatformCli(args, (line) => lines.push(line));
    return lines;
  };

  it('opens a motorcycle site with two locations that serves at once, and says what to do next', async () => {
    const lines = await cli([
      'site',
      'create',
      'tasman-motorcycles',
      '--name',
      'Tasman Motorcycles',
      '--template',
      'motorcycles',
      '--locale',
      'en-NZ',
      '--location',
      'Tasman Motorcycles Nelson; 40 Haven Road; Nelson; ; 7010; 03 548 1234; sales@tasman.example.co.nz',
      '--location',
      'Tasman Service; 2 Quarantine Road; Stoke; ; 7011; 03 547 5678',
    ]);
    expect(lines).toEqual([
      'Opened tasman-motorcycles (motorcycles): http://tasman-motorcycles.localhost:3000',
      'Its settings: http://console.localhost:3000/sites/tasman-motorcycles/settings',
      'Its first admin: platform console-user add <email> site-admin tasman-motorcycles',
    ]);
    const site = (await siteRequest(platform.app, 'tasman-motorcycles', 'GET', '/api/site')).json<{
      detail_path: string;
      locale: string;
      locations: { name: string; address: { full: string } }[];
    }>();
    expect(site.detail_path).toBe('/motorcycles');
    expect(site.locale).toBe('en-NZ');
    expect(site.locations.map((location) => [location.name, location.address.full])).toEqual([
      ['Tasman Motorcycles Nelson', '40 Haven Road, Nelson 7010'],
      ['Tasman Service', '2 Quarantine Road, Stoke 7011'],
    ]);
    expect((await siteRequest(platform.app, 'tasman-motorcycles', 'GET', '/')).statusCode).toBe(200);
  });

  it('opens a site from a JSON file of the console’s fields', async () => {
    const file = join(platform.ctx.config.dataDir, 'new-site.json');
    writeFileSync(
      file,
      JSON.stringify({
        template: 'campers',
        name: 'Red Centre Campers',
        slug: 'red-centre-campers',
        locale: 'en-AU',
        locations: [
          {
            name: 'Alice Springs',
            phone: '08 8952 1234',
            address: { street: '1 Todd St', city: 'Alice Springs', state: 'NT', postcode: '0870' },
          },
        ],
      }),
    );
    expect((await cli(['site', 'create', '--from', file]))[0]).toBe(
      'Opened red-centre-campers (campers): http://red-centre-campers.localhost:3000',
    );
  });

  it('says what is wrong, field by field, and opens nothing', async () => {
    const attempt = cli(['site', 'create', 'harbour-used-cars', '--name', '', '--template', 'boats', '--locale', 'en-AU']);
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(attempt).rejects.toThrow(/template: A template is one of/);
    await expect(attempt).rejects.toThrow(/name: The site needs a name\./);
    await expect(attempt).rejects.toThrow(/locations: A site has at least one location\./);
    await expect(cli(['site', 'create', 'x', '--location', 'only a name'])).rejects.toThrow(/A --location is/);
  });
});
