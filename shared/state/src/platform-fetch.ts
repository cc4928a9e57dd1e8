// Sibling modules are imported by package name (see store.ts): remotes get the shell's instance.

/** The fetch the platform's own APIs (`/api`, `/meili`) are called with. */
export type PlatformFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

let serverFetch: PlatformFetch | null = null;

/**
 * On the server, the page's first data comes from the platform in process (no socket, no DNS for
 * the site's host): the shell's server render sets this once. In the browser it is never set.
 */
export function setPlatformFetch(fetchImpl: PlatformFetch | null) {
  serverFetch = fetchImpl;
}

/** Calls the platform: the browser's fetch, or the server's in-process one while rendering a page. */
export const platformFetch: PlatformFetch = (input, init) => (serverFetch ?? fetch)(input, init);
