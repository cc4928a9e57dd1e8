import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inlinableStylesheet } from '../document/inline-stylesheet';
import { remoteNames, type RemoteName } from '@dealer/contracts/remote-modules';
import { remoteDescriptorFile, remoteDescriptorSchema, type RemoteDescriptor, type RemoteRef } from '@dealer/contracts/remotes';
import type { SiteRemoteSetting } from '@dealer/contracts/site';

/**
 * Published remote builds on disk: `<remotesDir>/<remote>/<version>/` (immutable) and
 * `<remotesDir>/<remote>/latest` naming the version sites follow unless they pin one.
 */
export class RemoteRegistry {
  private manifests = new Map<string, RemoteManifest | null>();
  private descriptors = new Map<string, RemoteDescriptor | null>();
  private styles = new Map<string, string | null>();
  private latestRead = new Map<RemoteName, { version: string | null; readAt: number }>();

  /** `now`: the clock the latest versions are kept by (tests move it). */
  constructor(
    readonly remotesDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  versions(remote: RemoteName): string[] {
    const dir = join(this.remotesDir, remote);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((entry) => statSync(join(dir, entry)).isDirectory() && existsSync(join(dir, entry, 'mf-manifest.json')))
      .sort();
  }

  /**
   * The published versions of a remote, newest first, each with when it was published and its
   * CHANGELOG section (published with the build; the part of the version before the build hash).
   */
  published(remote: RemoteName): PublishedVersion[] {
    return this.versions(remote)
      .map((version) => {
        const dir = join(this.remotesDir, remote, version);
        const changelog = join(dir, 'CHANGELOG.md');
        return {
          version,
          publishedAt: statSync(join(dir, 'mf-manifest.json')).mtimeMs,
          notes: existsSync(changelog) ? changelogSection(readFileSync(changelog, 'utf8'), version.split('-')[0]!) : null,
        };
      })
      .sort((a, b) => b.publishedAt - a.publishedAt);
  }

  /**
   * The version sites that pin none run. Every page asks for each remote several times, so what the
   * `latest` file says is kept for `latestKeptMs`: a promotion by any process is seen within that,
   * and at once by this one when it calls `forget`.
   */
  latest(remote: RemoteName): string | null {
    const now = this.now();
    const kept = this.latestRead.get(remote);
    if (kept && now - kept.readAt < latestKeptMs && now >= kept.readAt) return kept.version;
    const file = join(this.remotesDir, remote, 'latest');
    const said = existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
    const version = said !== null && this.hasVersion(remote, said) ? said : null;
    this.latestRead.set(remote, { version, readAt: now });
    return version;
  }

  /** Reads a remote's `latest` file again on the next ask (every remote's when none is named): this process promoted a version. */
  forget(remote?: RemoteName) {
    if (remote) this.latestRead.delete(remote);
    else this.latestRead.clear();
  }

  hasVersion(remote: RemoteName, version: string): boolean {
    return /^[\w.+-]+$/.test(version) && existsSync(join(this.remotesDir, remote, version, 'mf-manifest.json'));
  }

  /** The versions sites that pin none run, as one value: it changes when a remote version is promoted (by any process). */
  latestStamp(): string {
    return remoteNames.map((remote) => this.latest(remote) ?? '-').join(',');
  }

  /** The enabled remotes of a site at the versions it runs; a remote with nothing published is left out. */
  resolve(settings: SiteRemoteSetting[], baseUrl: string): RemoteRef[] {
    return settings.flatMap((setting) => {
      if (!setting.enabled) return [];
      const version = setting.version && this.hasVersion(setting.name, setting.version) ? setting.version : this.latest(setting.name);
      if (!version) return [];
      const slots = this.descriptor(setting.name, version)?.slots;
      const entry = this.manifest(setting.name, version)?.metaData.remoteEntry;
      if (!entry) return [];
      const base = `${baseUrl}/remotes/${setting.name}/${version}/`;
      const entryUrl = base + join(entry.path ?? '', entry.name).replace(/^\.?\//, '');
      return [
        {
          name: setting.name,
          version,
          manifestUrl: `${base}mf-manifest.json`,
          entryUrl,
          ...(slots && Object.keys(slots).length ? { slots } : {}),
        },
      ];
    });
  }

  /** Manifests of published versions never change, so each is read once. */
  manifest(remote: RemoteName, version: string): RemoteManifest | null {
    const key = `${remote}@${version}`;
    if (!this.manifests.has(key)) {
      const file = join(this.remotesDir, remote, version, 'mf-manifest.json');
      this.manifests.set(key, existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RemoteManifest) : null);
    }
    return this.manifests.get(key) ?? null;
  }

  /**
   * What a published version says about itself (the named slots it fills); null for versions
   * published before remotes described themselves, or with a descriptor that does not parse
   * (that remote then fills no slots, and the rest of the site is unaffected).
   */
  descriptor(remote: RemoteName, version: string): RemoteDescriptor | null {
    const key = `${remote}@${version}`;
    if (!this.descriptors.has(key)) {
      const file = join(this.remotesDir, remote, version, remoteDescriptorFile);
      let descriptor: RemoteDescriptor | null = null;
      if (existsSync(file)) {
        try {
          const parsed = remoteDescriptorSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
          descriptor = parsed.success && parsed.data.name === remote ? parsed.data : null;
        } catch {
          descriptor = null;
        }
      }
      this.descriptors.set(key, descriptor);
    }
    return this.descriptors.get(key) ?? null;
  }

  /** Files to preload so the route's remote arrives without a manifest → entry → chunk waterfall. */
  preloadFiles(ref: RemoteRef, expose: string): { js: string[]; css: string[] } {
    const manifest = this.manifest(ref.name, ref.version);
    if (!manifest) return { js: [], css: [] };
    const base = ref.manifestUrl.slice(0, ref.manifestUrl.lastIndexOf('/') + 1);
    const exposed = exposedIn(manifest, expose);
    const js = (exposed?.assets.js.sync ?? []).map((file) => base + file.replace(/^\.?\//, ''));
    return { js: [ref.entryUrl, ...js], css: (exposed?.assets.css.sync ?? []).map((file) => base + file) };
  }

  /**
   * The files of exposed modules (`<remote>/<expose>`) at the versions a site runs (`refs`), each
   * once: every module's entry, first chunks and styles. A remote the site does not run, or a module
   * its version does not expose, adds nothing. The browser fetches those of the modules placed in a
   * page's markup ahead, once the page has settled (a car page's Enquire, Reserve and Save buttons).
   */
  moduleFiles(refs: readonly RemoteRef[], modules: Iterable<string>): { href: string; as: 'script' | 'style' }[] {
    const files = new Map<string, 'script' | 'style'>();
    for (const module of modules) {
      const slash = module.indexOf('/');
      const ref = refs.find((candidate) => candidate.name === module.slice(0, slash));
      const manifest = ref && this.manifest(ref.name, ref.version);
      const expose = module.slice(slash + 1);
      if (!ref || !manifest || !exposedIn(manifest, expose)) continue;
      const { js, css } = this.preloadFiles(ref, expose);
      for (const href of js) files.set(href, 'script');
      for (const href of css) files.set(href, 'style');
    }
    return [...files].map(([href, as]) => ({ href, as }));
  }

  /**
   * The stylesheets of an exposed module with their text, for a page that shows the module in its
   * first response: inlined, they cost no request before the page can paint. Published files never
   * change, so each is read once; a large one (or one that could end a <style>) is left as a link.
   */
  inlineStyles(ref: RemoteRef, expose: string): { href: string; css: string }[] {
    const manifest = this.manifest(ref.name, ref.version);
    const exposed = manifest && exposedIn(manifest, expose);
    const base = ref.manifestUrl.slice(0, ref.manifestUrl.lastIndexOf('/') + 1);
    return (exposed?.assets.css.sync ?? []).flatMap((file) => {
      const key = `${ref.name}@${ref.version}/${file}`;
      if (!this.styles.has(key)) {
        if (this.styles.size >= 500) this.styles.clear();
        this.styles.set(key, inlinableStylesheet(join(this.remotesDir, ref.name, ref.version), file, maxInlineStyleChars));
      }
      const css = this.styles.get(key);
      return css ? [{ href: base + file, css }] : [];
    });
  }
}

/** How long what a remote's `latest` file says is kept before it is read again. */
const latestKeptMs = 1_000;

/** Above this a stylesheet stays a link (cached across pages) rather than inlined into each. */
const maxInlineStyleChars = 16_000;

export const isRemoteName = (value: string): value is RemoteName => (remoteNames as readonly string[]).includes(value);

/** The parts of an mf-manifest.json the server reads. */
export type RemoteManifest = {
  name: string;
  metaData: { remoteEntry: { name: string; path?: string; type?: string } };
  exposes: { name: string; path: string; assets: { js: { sync: string[]; async: string[] }; css: { sync: string[]; async: string[] } } }[];
};

/** An exposed module in a manifest, by its expose name (`EnquireButton`) or path (`./EnquireButton`). */
const exposedIn = (manifest: RemoteManifest, expose: string) =>
  manifest.exposes.find((item) => item.name === expose || item.path === `./${expose}`);

export type PublishedVersion = { version: string; publishedAt: number; notes: string | null };

/** The text under `## <release>` in a CHANGELOG, up to the next heading (at most 1,200 characters); null when there is none. */
export function changelogSection(changelog: string, release: string): string | null {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${release}`);
  if (start < 0) return null;
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const text = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
  return text.length > 1200 ? `${text.slice(0, 1199)}…` : text || null;
}
