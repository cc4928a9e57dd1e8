import { useEffect, useState, type FormEvent } from 'react';
import type { ChatMessage, DealerChatThread } from '@dealer/contracts/chat';
import type { ChatInboxProps } from '@dealer/contracts/remote-modules';
import { Button } from '@dealer/ui/button';

/** How often the inbox looks for new messages: the shopper's open chat asks every 4 s. */
const pollMs = 3000;
const when = (ms: number) => new Date(ms).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });

async function call<T>(url: string, body?: object): Promise<T> {
  const res = await fetch(url, {
    method: body ? 'POST' : 'GET',
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await res.json().catch(() => ({}))) as T & { message?: string; fields?: Record<string, string> };
  if (!res.ok) throw new Error(answer.fields?.body ?? answer.message ?? `The console answered ${res.status}.`);
  return answer;
}

/**
 * The dealer's chat inbox (console screen of mf-chat): conversations awaiting a reply first, each
 * with the lead it belongs to; a conversation whole with a reply box. Live both ways: the inbox looks
 * for new messages every few seconds, and the shopper's open chat shows a reply at its next poll.
 */
export default function ChatInbox({ apiBase, canReply }: ChatInboxProps) {
  const [threads, setThreads] = useState<DealerChatThread[] | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), pollMs);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    let current = true;
    Promise.all([
      call<{ threads: DealerChatThread[] }>(`${apiBase}/chats?awaiting_reply=true&limit=100`),
      call<{ threads: DealerChatThread[] }>(`${apiBase}/chats?awaiting_reply=false&limit=100`),
    ]).then(
      ([waiting, answered]) => current && setThreads([...waiting.threads, ...answered.threads]),
      (caught: unknown) => current && setError(caught instanceof Error ? caught.message : 'The conversations could not be loaded.'),
    );
    if (open !== null)
      call<{ messages: ChatMessage[] }>(`${apiBase}/chats/${open}`).then(
        (found) => current && setMessages(found.messages),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [apiBase, open, tick]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (open === null) return;
    setSending(true);
    try {
      const sent = await call<{ message: ChatMessage }>(`${apiBase}/chats/${open}/replies`, { body: draft });
      setMessages((shown) => [...shown, sent.message]);
      setDraft('');
      setError(null);
      setTick((n) => n + 1);
    } catch (caught) {
      // What was typed stays in the box.
      setError(caught instanceof Error ? caught.message : 'The reply could not be sent.');
    } finally {
      setSending(false);
    }
  };
  const thread = threads?.find((one) => one.id === open) ?? null;

  return (
    <section className="dc-chats" aria-labelledby="dc-chats-title">
      <h1 id="dc-chats-title">Chats</h1>
      {threads === null ? <p role="status">Loading the conversations…</p> : null}
      {threads?.length === 0 ? <p>No conversations yet.</p> : null}
      <ul className="dc-chats__list">
        {(threads ?? []).map((one) => (
          <li key={one.id}>
            <button
              type="button"
              className="dp-button dp-button--link"
              aria-current={one.id === open ? 'true' : undefined}
              onClick={() => setOpen(one.id)}
            >
              {one.name}
            </button>{' '}
            {one.awaiting_reply ? <strong className="dc-chats__waiting">awaiting a reply</strong> : null} · lead {one.lead_id} ·{' '}
            {when(one.last_message.sent_at)}
            <br />
            <span className="dc-chats__preview">{one.last_message.body.slice(0, 120)}</span>
          </li>
        ))}
      </ul>
      {thread ? (
        <article className="dc-chats__thread" aria-labelledby="dc-chat-title">
          <h2 id="dc-chat-title">
            Conversation with {thread.name} (lead {thread.lead_id})
          </h2>
          <p>
            {thread.email} · {thread.phone}
          </p>
          <ol className="dc-chats__messages" aria-label="Messages">
            {messages.map((message) => (
              <li key={message.id} className={`dc-chats__message dc-chats__message--${message.author}`}>
                <p>{message.body}</p>
                <small>
                  {message.author === 'dealer' ? (message.author_name ?? 'Dealer') : thread.name}, {when(message.sent_at)}
                </small>
              </li>
            ))}
          </ol>
          {canReply ? (
            <form onSubmit={send} aria-label="Reply">
              <div className={`dp-field${error ? ' dp-field--invalid' : ''}`}>
                <label htmlFor="chat-reply">Your reply</label>
                <textarea
                  id="chat-reply"
                  rows={3}
                  value={draft}
                  onChange={(event) => setDraft(event.target.value)}
                  aria-describedby={error ? 'chat-reply-error' : undefined}
                />
                {error ? (
                  <p className="dp-field__error" id="chat-reply-error">
                    {error}
                  </p>
                ) : null}
              </div>
              <Button type="submit" loading={sending} loadingText="Sending">
                Send reply
              </Button>
            </form>
          ) : null}
        </article>
      ) : null}
    </section>
  );
}
