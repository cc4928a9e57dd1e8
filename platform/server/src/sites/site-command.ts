import { readFileSync } from 'node:fs';
import type { NewSiteInput } from '@dealer/contracts/new-site';
import type { PlatformDb } from '@dealer/db/database';
import { createSite, SiteRefused } from './create-site';

export const siteCommandUsage = `  platform site create <slug> --name <name> --template <template> --locale <en-AU|en-NZ|en-US>
                       --location "<name>; <street>; <suburb or city>; <state>; <postcode>; <phone>[; <e-mail>]" ...
                       [--domain <www.example.com.au>] [--group <dealer group>] [--brand <make>] [--colour <#rrggbb>]
                                                       open a dealer site from its template; it serves at once
  platform site create --from <file.json>              the same from a JSON file (the console's "New site" fields)`;

/** `--key value` pairs (a key may repeat: `--location`). */
function options(words: string[], fail: (message: string) => never): { positional: string[]; given: Map<string, string[]> } {
  const positional: string[] = [];
  const given = new Map<string, string[]>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('--')) {
      positional.push(word);
      continue;
    }
    const value = words[++i];
    if (value === undefined) fail(`${word} needs a value.`);
    given.set(word.slice(2), [...(given.get(word.slice(2)) ?? []), value!]);
  }
  return { positional, given };
}

function locationOf(text: string, fail: (message: string) => never): NewSiteInput['locations'][number] {
  const [name, street, city, state, postcode, phone, email, ...extra] = text.split(';').map((part) => part.trim());
  if (!name || !street || !city || !postcode || !phone || extra.length > 0)
    fail(`A --location is "<name>; <street>; <suburb or city>; <state>; <postcode>; <phone>[; <e-mail>]", not "${text}".`);
  return {
    name: name!,
    phone: phone!,
    email: email || null,
    address: { street: street!, city: city!, state: state ?? '', postcode: postcode! },
  };
}

/** `platform site create …`: prints the new site's address and what to do next; throws a message for a wrong command. */
export async function siteCommand(
  db: PlatformDb,
  words: string[],
  origin: (slug: string) => string,
  consoleUrl: string,
  out: (line: string) => void,
  fail: (message: string) => never,
) {
  const [action, ...rest] = words;
  if (action !== 'create') fail(siteCommandUsage);
  const { positional, given } = options(rest, fail);
  const one = (key: string) => given.get(key)?.at(-1);
  let request: unknown;
  if (one('from')) {
    try {
      request = JSON.parse(readFileSync(one('from')!, 'utf8'));
    } catch (error) {
      fail(`Cannot read ${one('from')}: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else {
    const [slug, ...extra] = positional;
    if (!slug || extra.length > 0) fail(siteCommandUsage);
    request = {
      slug,
      name: one('name'),
      template: one('template'),
      locale: one('locale'),
      domain_name: one('domain') ?? null,
      dealership_group: one('group') ?? null,
      manufacturer: one('brand') ?? null,
      branding: one('colour') ? { primary: one('colour') } : {},
      locations: (given.get('location') ?? []).map((text) => locationOf(text, fail)),
    };
  }
  try {
    const site = await createSite(db, request, origin);
    out(`Opened ${site.slug} (${site.template}): ${site.url}`);
    out(`Its settings: ${consoleUrl}/sites/${site.slug}/settings`);
    out(`Its first admin: platform console-user add <email> site-admin ${site.slug}`);
  } catch (error) {
    if (error instanceof SiteRefused)
      fail(
        Object.entries(error.fields)
          .map(([field, message]) => `${field}: ${message}`)
          .join('\n'),
      );
    throw error;
  }
}
