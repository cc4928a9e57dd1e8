import { z } from 'zod';
import { remoteNames, slotNames } from './remote-modules';

export { remoteNames };

/**
 * What a published remote version says about itself beside its mf-manifest.json
 * (`dealer-remote.json`, written by its build): the named slots its exposed modules fill.
 */
export const remoteDescriptorSchema = z.object({
  name: z.enum(remoteNames),
  slots: z.partialRecord(z.enum(slotNames), z.array(z.string().regex(/^[A-Za-z][\w-]*$/)).max(20)).default({}),
});
export type RemoteDescriptor = z.infer<typeof remoteDescriptorSchema>;
export const remoteDescriptorFile = 'dealer-remote.json';

/** What the browser is told about one enabled remote of its site. */
export const remoteRefSchema = z.object({
  name: z.enum(remoteNames),
  version: z.string(),
  manifestUrl: z.string(),
  /**
   * Its remoteEntry.js: what the browser's federation runtime loads. Given the entry (not the
   * manifest) the runtime neither fetches the manifest nor builds preload links from it, work a
   * phone did on every page; the server already preloads what the page's first render needs.
   */
  entryUrl: z.string(),
  /** Slot name → the remote's exposed modules (by expose name) that fill it, at this version. */
  slots: z.partialRecord(z.enum(slotNames), z.array(z.string())).optional(),
});
export type RemoteRef = z.infer<typeof remoteRefSchema>;
