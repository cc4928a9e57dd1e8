import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '@dealer/contracts/site';
import { chatChoiceFor, chatMessageCounts, chatOriginsFor } from './chat';

const noIds: SiteConfig['third_party'] = {
  google_site_verification: null,
  google_analytics_id: null,
  facebook_pixel: null,
  livechat_agent_group: null,
  podium_api_organization: null,
  impel_chatbot_key: null,
  zendesk_key: null,
  livechat_license: null,
  youx_provider_code: null,
  xtime_url: null,
  autobot: null,
  dealercell: null,
};
const site = (ids: Partial<SiteConfig['third_party']>, chat_provider?: SiteConfig['features']['chat_provider']) => ({
  third_party: { ...noIds, ...ids },
  features: { chat_provider },
});

describe("the hosts a site's chat may reach", () => {
  it("are the chosen provider's only, and none for the built-in chat", () => {
    expect(chatOriginsFor({ kind: 'built_in' })).toEqual({ script: [], connect: [], frame: [], img: [] });
    const everyId = {
      podium_api_organization: 'org',
      livechat_license: '1',
      livechat_agent_group: '2',
      zendesk_key: 'zk',
      impel_chatbot_key: 'ik',
    };
    const kinds = ['podium', 'livechat', 'zendesk', 'impel'] as const;
    const originsOf = (kind: (typeof kinds)[number]) => chatOriginsFor(chatChoiceFor(site(everyId, kind)));
    for (const kind of kinds) {
      const choice = chatChoiceFor(site(everyId, kind));
      if (choice.kind === 'built_in') throw new Error(`${kind} has ids`);
      // The widget's script loads from an origin the policy names, and no other provider's host is named.
      expect(originsOf(kind).script).toEqual([new URL(choice.src).origin]);
      const named = new Set(Object.values(originsOf(kind)).flat());
      for (const other of kinds.filter((k) => k !== kind))
        for (const host of Object.values(originsOf(other)).flat()) expect(named.has(host), `${kind} names ${host}`).toBe(false);
    }
  });
});

describe('whose chat a site opens', () => {
  it('is the built-in chat for a dealer with no chat provider ids', () => {
    expect(chatChoiceFor(site({}))).toEqual({ kind: 'built_in' });
  });

  it('is the first provider with ids when the dealer has not chosen: Podium, then LiveChat, Zendesk, Impel', () => {
    expect(chatChoiceFor(site({ podium_api_organization: 'org 1', zendesk_key: 'zk' })).kind).toBe('podium');
    expect(chatChoiceFor(site({ impel_chatbot_key: 'ik', zendesk_key: 'zk' })).kind).toBe('zendesk');
    expect(chatChoiceFor(site({ impel_chatbot_key: 'ik' }))).toEqual({
      kind: 'impel',
      key: 'ik',
      src: 'https://chat.impel.io/widget.js?key=ik',
    });
  });

  it('loads each provider from its own script address, the ids escaped', () => {
    expect(chatChoiceFor(site({ podium_api_organization: 'org 1' }))).toMatchObject({
      src: 'https://connect.podium.com/widget.js#ORG_TOKEN=org%201',
    });
    expect(chatChoiceFor(site({ zendesk_key: 'a&b' }))).toMatchObject({ src: 'https://static.zdassets.com/ekr/snippet.js?key=a%26b' });
    expect(chatChoiceFor(site({ livechat_license: '123', livechat_agent_group: '4' }))).toEqual({
      kind: 'livechat',
      license: '123',
      group: '4',
      src: 'https://cdn.livechatinc.com/tracking.js',
    });
  });

  it('needs the LiveChat account as well as the agent group', () => {
    expect(chatChoiceFor(site({ livechat_agent_group: '4' }))).toEqual({ kind: 'built_in' });
  });

  it("follows the dealer's choice of provider, and falls back to the built-in chat when that provider has no ids", () => {
    const ids = { podium_api_organization: 'org', zendesk_key: 'zk' };
    expect(chatChoiceFor(site(ids, 'zendesk')).kind).toBe('zendesk');
    expect(chatChoiceFor(site(ids, 'built_in')).kind).toBe('built_in');
    expect(chatChoiceFor(site(ids, 'impel')).kind).toBe('built_in');
  });
});

describe("a chat message counts as the shopper's within 10 seconds of their last action in the chat", () => {
  it.each([
    [1_000, 1_000, true],
    [1_000, 11_000, true],
    [1_000, 11_001, false],
    [5_000, 4_999, false],
    [null, 4_999, false],
  ])('last action at %s, message at %s: %s', (action, message, counts) => {
    expect(chatMessageCounts(action, message)).toBe(counts);
  });
});
