import { useCallback, useEffect, useRef, useState } from 'react';
import { Field, Form } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import { chatLimits, chatPollMs, type ChatMessage } from '@dealer/contracts/chat';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { validateFields, type FieldRule } from '@dealer/rules/lead-validation';
import { formatNumber } from '@dealer/rules/locale';
import { phoneRuleFor, phoneRuleRegion, toE164 } from '@dealer/rules/phone';
import { Alert } from '@dealer/ui/alert';
import { Button } from '@dealer/ui/button';
import {
  mergeMessages,
  messagesAfter,
  newClientMessageId,
  sendMessage,
  startConversation,
  storeConversation,
  storedConversation,
  type Conversation,
} from './chat-api';

const tooLong = `Please keep a message to ${formatNumber(chatLimits.messageMax)} characters.`;

/**
 * The start form's fields (SPEC §5 rules and messages). The mobile must also make an E.164
 * number on AU and US sites (SPEC §5 E.164 normalisation, chat and ad tracking), so the dealer
 * can text back: an Australian landline is refused with the SPEC's E.164 message.
 */
export function chatStartRules(site: Pick<PublicSiteConfig, 'locale' | 'features' | 'lead_settings'>): FieldRule[] {
  const region = phoneRuleRegion(phoneRuleFor(site));
  return [
    { name: 'name', type: 'string', label: 'Your name' },
    {
      name: 'phone',
      type: 'phone',
      label: 'Mobile Number',
      validate: (value) => {
        if (region === 'NZ') return null;
        const e164 = toE164(String(value), region);
        return e164.ok ? null : e164.message;
      },
    },
    { name: 'email', type: 'email', label: 'Email Address' },
    {
      name: 'message',
      type: 'textarea',
      label: 'Message',
      validate: (value) => (String(value).length > chatLimits.messageMax ? tooLong : null),
    },
  ];
}

/** The number the dealer texts: E.164 where the site's country has the rule, else as typed. */
function phoneToSend(site: Pick<PublicSiteConfig, 'locale' | 'features' | 'lead_settings'>, phone: string): string {
  const region = phoneRuleRegion(phoneRuleFor(site));
  if (region === 'NZ') return phone.trim();
  const e164 = toE164(phone, region);
  return e164.ok ? e164.e164 : phone.trim();
}

type StartValues = { name?: string; phone?: string; email?: string; message?: string };

function TextField({
  name,
  label,
  type = 'text',
  multiline = false,
  autoComplete,
}: {
  name: string;
  label: string;
  type?: string;
  multiline?: boolean;
  autoComplete?: string;
}) {
  const id = `chat-${name}`;
  return (
    <Field name={name} subscription={{ value: true, error: true, submitError: true, submitFailed: true, dirtySinceLastSubmit: true }}>
      {({ input, meta }) => {
        const error = meta.submitFailed ? (meta.error ?? (!meta.dirtySinceLastSubmit ? meta.submitError : undefined)) : undefined;
        const props = { ...input, id, 'aria-invalid': Boolean(error), 'aria-describedby': error ? `${id}-error` : undefined, autoComplete };
        return (
          <div className="chat-widget__field">
            <label htmlFor={id}>{label}</label>
            {multiline ? <textarea {...props} rows={3} /> : <input {...props} type={type} />}
            {error && (
              <span id={`${id}-error`} className="chat-widget__error" role="alert">
                {String(error)}
              </span>
            )}
          </div>
        );
      }}
    </Field>
  );
}

function Messages({ messages, siteName }: { messages: readonly ChatMessage[]; siteName: string }) {
  const end = useRef<HTMLLIElement>(null);
  // A block body: newer browsers' scrollIntoView returns a promise, which React would take for a cleanup.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [messages.length]);
  return (
    <ol className="chat-widget__messages" aria-label="Conversation" aria-live="polite">
      {messages.map((message) => (
        <li key={message.id} className={`chat-widget__message chat-widget__message--${message.author}`}>
          <span className="chat-widget__author">{message.author === 'shopper' ? 'You' : (message.author_name ?? siteName)}</span>
          <p>{message.body}</p>
        </li>
      ))}
      <li ref={end} aria-hidden="true" className="chat-widget__end" />
    </ol>
  );
}

/**
 * The platform's own chat, for a site with no chat provider (or a shopper who refused third-party
 * tags, or a provider that did not load): the first message and the shopper's details become a
 * lead; later messages join its thread, and the dealer's answers (admin API) appear while the
 * window is open. The conversation is kept in this browser, so it carries on after a reload.
 */
export function BuiltInChat({ site, onShopperMessage }: { site: PublicSiteConfig; onShopperMessage: () => void }) {
  const [conversation, setConversation] = useState<Conversation | null>(() => storedConversation(site.slug));
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const lastId = messages.length ? messages[messages.length - 1]!.id : 0;
  const startId = useRef(newClientMessageId());

  const forget = useCallback(() => {
    storeConversation(site.slug, null);
    setConversation(null);
    setMessages([]);
  }, [site.slug]);

  // The dealer's answers: asked for while the window is open.
  useEffect(() => {
    if (!conversation) return;
    let stopped = false;
    const poll = async () => {
      const result = await messagesAfter(site.api_prefix, conversation, lastId);
      if (stopped) return;
      if (result.ok) setMessages((current) => mergeMessages(current, result.value.messages));
      // The conversation is gone (the shopper deleted their data, the dealer's site moved): start afresh.
      else if (result.status === 404) forget();
    };
    void poll();
    const timer = setInterval(() => void poll(), chatPollMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [conversation, lastId, forget, site.api_prefix]);

  if (!conversation) {
    const rules = chatStartRules(site);
    return (
      <Form<StartValues>
        validate={(values) => validateFields(rules, values, { phoneRule: phoneRuleFor(site), locale: site.locale })}
        onSubmit={async (values) => {
          const started = await startConversation(site.api_prefix, {
            name: values.name ?? '',
            phone: phoneToSend(site, values.phone ?? ''),
            email: values.email ?? '',
            message: values.message ?? '',
            client_message_id: startId.current,
            url: window.location.href,
          });
          if (!started.ok) return { [FORM_ERROR]: started.message, ...started.fields };
          const next = { threadId: started.value.thread_id, token: started.value.token };
          storeConversation(site.slug, next);
          setMessages(started.value.messages);
          setConversation(next);
          onShopperMessage();
          return undefined;
        }}
        render={({ handleSubmit, submitting, submitError }) => (
          <form className="chat-widget__form" onSubmit={handleSubmit} noValidate aria-label="Start a chat">
            <p>{`Send us a message and the ${site.name} team will reply here and by text.`}</p>
            <TextField name="name" label="Your name" autoComplete="name" />
            <TextField name="phone" label="Mobile Number" type="tel" autoComplete="tel" />
            <TextField name="email" label="Email Address" type="email" autoComplete="email" />
            <TextField name="message" label="Message" multiline />
            {submitError && <Alert tone="destructive">{String(submitError)}</Alert>}
            <Button type="submit" loading={submitting} loadingText="Sending">
              Start chat
            </Button>
          </form>
        )}
      />
    );
  }

  const send = async () => {
    const text = draft.trim();
    if (!text) return setSendError('*This is a required field.');
    if (text.length > chatLimits.messageMax) return setSendError(tooLong);
    setSending(true);
    setSendError(null);
    const sent = await sendMessage(site.api_prefix, conversation, text, newClientMessageId());
    setSending(false);
    if (!sent.ok) return setSendError(sent.message);
    setDraft('');
    setMessages((current) => mergeMessages(current, [sent.value.message]));
    onShopperMessage();
  };

  return (
    <div className="chat-widget__conversation">
      <Messages messages={messages} siteName={site.name} />
      <form
        className="chat-widget__send"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label htmlFor="chat-reply">Your message</label>
        <textarea
          id="chat-reply"
          rows={2}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          aria-invalid={Boolean(sendError)}
          aria-describedby={sendError ? 'chat-reply-error' : undefined}
        />
        {sendError && (
          <span id="chat-reply-error" className="chat-widget__error" role="alert">
            {sendError}
          </span>
        )}
        <Button type="submit" loading={sending} loadingText="Sending">
          Send
        </Button>
      </form>
    </div>
  );
}
