import type { SiteConfig } from '@dealer/contracts/site';

/**
 * A third-party chat as a site's ids configure it (SPEC §3 third-party identifiers): the script a
 * page loads (after the shopper's first interaction) and what the adapter needs to start it.
 */
export type ChatProvider =
  | { kind: 'podium'; organization: string; src: string }
  | { kind: 'livechat'; license: string; group: string; src: string }
  | { kind: 'zendesk'; key: string; src: string }
  | { kind: 'impel'; key: string; src: string };

export type ChatChoice = ChatProvider | { kind: 'built_in' };

type ChatSite = Pick<SiteConfig, 'third_party'> & { features: Pick<SiteConfig['features'], 'chat_provider'> };

const providerOrder = ['podium', 'livechat', 'zendesk', 'impel'] as const;

function providerOf(kind: (typeof providerOrder)[number], ids: SiteConfig['third_party']): ChatProvider | null {
  switch (kind) {
    case 'podium':
      return ids.podium_api_organization
        ? {
            kind,
            organization: ids.podium_api_organization,
            src: `https://connect.podium.com/widget.js#ORG_TOKEN=${encodeURIComponent(ids.podium_api_organization)}`,
          }
        : null;
    case 'livechat':
      return ids.livechat_agent_group && ids.livechat_license
        ? { kind, license: ids.livechat_license, group: ids.livechat_agent_group, src: 'https://cdn.livechatinc.com/tracking.js' }
        : null;
    case 'zendesk':
      return ids.zendesk_key
        ? { kind, key: ids.zendesk_key, src: `https://static.zdassets.com/ekr/snippet.js?key=${encodeURIComponent(ids.zendesk_key)}` }
        : null;
    case 'impel':
      return ids.impel_chatbot_key
        ? { kind, key: ids.impel_chatbot_key, src: `https://chat.impel.io/widget.js?key=${encodeURIComponent(ids.impel_chatbot_key)}` }
        : null;
  }
}

/**
 * Whose chat the site's 'Text us' opens. The site's `chat_provider` setting names one (used only
 * when its ids are there: a provider without its ids cannot load); without the setting, the first
 * provider with ids. Anything else, and every site without ids, gets the built-in chat, so a shopper
 * can always reach the dealer.
 */
export function chatChoiceFor(site: ChatSite): ChatChoice {
  const chosen = site.features.chat_provider;
  if (chosen === 'built_in') return { kind: 'built_in' };
  if (chosen) return providerOf(chosen, site.third_party) ?? { kind: 'built_in' };
  for (const kind of providerOrder) {
    const provider = providerOf(kind, site.third_party);
    if (provider) return provider;
  }
  return { kind: 'built_in' };
}

type ChatOrigins = { script: string[]; connect: string[]; frame: string[]; img: string[] };

/** Where each provider's widget loads from, talks to, frames and draws pictures from. */
const providerOrigins: Record<ChatProvider['kind'], ChatOrigins> = {
  podium: {
    script: ['https://connect.podium.com'],
    connect: ['https://*.podium.com'],
    frame: ['https://*.podium.com'],
    img: ['https://*.podium.com'],
  },
  livechat: {
    script: ['https://cdn.livechatinc.com'],
    connect: ['https://*.livechatinc.com', 'wss://*.livechatinc.com'],
    frame: ['https://*.livechatinc.com'],
    img: ['https://*.livechatinc.com'],
  },
  zendesk: {
    script: ['https://static.zdassets.com'],
    connect: ['https://*.zendesk.com', 'wss://*.zendesk.com', 'https://*.zdassets.com'],
    frame: ['https://*.zendesk.com'],
    img: ['https://*.zdassets.com', 'https://*.zendesk.com'],
  },
  impel: { script: ['https://chat.impel.io'], connect: ['https://*.impel.io'], frame: ['https://*.impel.io'], img: ['https://*.impel.io'] },
};

/** The origins a site's chat needs in its pages' Content-Security-Policy: its own provider's, none for the built-in chat. */
export function chatOriginsFor(choice: ChatChoice): ChatOrigins {
  if (choice.kind === 'built_in') return { script: [], connect: [], frame: [], img: [] };
  const own = providerOrigins[choice.kind];
  return { script: [...own.script], connect: [...own.connect], frame: [...own.frame], img: [...own.img] };
}

/** SPEC §9: chat message events count if within 10 seconds. */
export const chatMessageWindowMs = 10_000;

/**
 * SPEC §9 "Chat message events count if within 10 seconds": a message a chat reports counts as the
 * shopper's (a webchat conversion) only within 10 s of the shopper's own last action in the chat
 * (opening it, sending), so a provider's greeting or an agent's later message is not counted.
 */
export function chatMessageCounts(lastShopperActionAt: number | null, messageAt: number): boolean {
  if (lastShopperActionAt === null) return false;
  const elapsed = messageAt - lastShopperActionAt;
  return elapsed >= 0 && elapsed <= chatMessageWindowMs;
}

/** The chat's analytics label for a site's provider (SPEC §9 webchat events). */
export const chatEventLabel = (choice: ChatChoice): string => (choice.kind === 'built_in' ? 'Web Chat' : `Web Chat - ${choice.kind}`);

/** SPEC §4 "Chat popup": where a closed welcome bubble is remembered in the browser, per site. */
export const chatWelcomeClosedKey = (siteSlug: string) => `dealer:${siteSlug}:chat-welcome-closed`;
