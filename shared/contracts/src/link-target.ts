import { z } from 'zod';

export const linkTargetMessage = 'A link goes to a page of the site (/about) or a web address (https://…).';

/** Spaces, control characters and backslashes are in no link a dealer means; browsers skip or reread some of them. */
const hasStrayCharacter = (to: string) => /[\s\\]/.test(to) || [...to].some((character) => character < ' ' || character === '\u007f');

/**
 * A page of the site (one leading slash, never two: `//host` is another site, and so are `/\host`
 * and `/<tab>/host` to a browser) or a web address, http or https only, so never script
 * (javascript:, data:, vbscript:).
 */
const isSitePathOrWebAddress = (to: string) =>
  !hasStrayCharacter(to) && ((to.startsWith('/') && !to.startsWith('//')) || (/^https?:\/\/./i.test(to) && URL.canParse(to)));

/**
 * Where a link the dealer writes may go (menus, buttons of content pages): a page of the site (/about)
 * or a web address; never script (javascript:, data:) nor anything else a browser would run or open.
 */
export const linkTarget = z.string().trim().max(500, 'At most 500 characters.').refine(isSitePathOrWebAddress, linkTargetMessage);
