import { z } from 'zod';
import { remoteNames } from './remote-modules';

export { remoteNames };

/** What the browser is told about one enabled remote of its site. */
export const remoteRefSchema = z.object({
  name: z.enum(remoteNames),
  version: z.string(),
  manifestUrl: z.string(),
});
export type RemoteRef = z.infer<typeof remoteRefSchema>;
