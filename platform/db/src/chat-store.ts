/**
 * The built-in chat's conversations and messages (issue 11). A conversation belongs to its lead
 * (written in the lead's transaction, deleted with it); its message count is raised in the same
 * update that admits a message, so the cap holds however many arrive at once.
 */
import type { Selectable, Transaction } from 'kysely';
import type { PlatformDb } from './database';
import { pageOf, pastPosition, type Page, type PagePosition } from './page-cursor';
import type { ChatAuthor, PlatformDatabase } from './schema';

type Trx = Transaction<PlatformDatabase>;

export type StoredChatMessage = {
  id: number;
  thread_id: number;
  author: ChatAuthor;
  author_name: string | null;
  body: string;
  client_message_id: string | null;
  created_at: number;
};

export type StoredChatThread = {
  id: number;
  site_id: number;
  lead_id: number;
  token_salt: string;
  name: string;
  phone: string;
  email: string;
  created_at: number;
  updated_at: number;
  last_author: ChatAuthor;
  message_count: number;
  /** Its lead was saved through /mock. */
  mock: boolean;
};

const messageColumns = ['id', 'thread_id', 'author', 'author_name', 'body', 'client_message_id', 'created_at'] as const;
const threadColumns = [
  'id',
  'site_id',
  'lead_id',
  'token_salt',
  'name',
  'phone',
  'email',
  'created_at',
  'updated_at',
  'last_author',
  'message_count',
] as const;

const toMessage = (row: Selectable<PlatformDatabase['chat_messages']>): StoredChatMessage => ({
  id: Number(row.id),
  thread_id: Number(row.thread_id),
  author: row.author,
  author_name: row.author_name,
  body: row.body,
  client_message_id: row.client_message_id,
  created_at: Number(row.created_at),
});

const toThread = (row: Selectable<PlatformDatabase['chat_threads']> & { mock: number | null }): StoredChatThread => ({
  id: Number(row.id),
  site_id: row.site_id,
  lead_id: Number(row.lead_id),
  token_salt: row.token_salt,
  name: row.name,
  phone: row.phone,
  email: row.email,
  created_at: Number(row.created_at),
  updated_at: Number(row.updated_at),
  last_author: row.last_author,
  message_count: Number(row.message_count),
  mock: Number(row.mock) === 1,
});

export type NewChatThread = {
  siteId: number;
  leadId: number;
  tokenSalt: string;
  name: string;
  phone: string;
  email: string;
  /** The shopper's first message (the lead's message). */
  body: string;
  clientMessageId: string;
};

/** A conversation and its first message, inside the lead's transaction. */
export async function insertThread(
  trx: Trx,
  thread: NewChatThread,
  now: number,
): Promise<{ threadId: number; message: StoredChatMessage }> {
  const row = await trx
    .insertInto('chat_threads')
    .values({
      site_id: thread.siteId,
      lead_id: thread.leadId,
      token_salt: thread.tokenSalt,
      name: thread.name,
      phone: thread.phone,
      email: thread.email,
      created_at: now,
      updated_at: now,
      last_author: 'shopper',
      message_count: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const threadId = Number(row.id);
  const message = await trx
    .insertInto('chat_messages')
    .values({
      thread_id: threadId,
      author: 'shopper',
      author_name: null,
      body: thread.body,
      client_message_id: thread.clientMessageId,
      created_at: now,
    })
    .returning(messageColumns)
    .executeTakeFirstOrThrow();
  return { threadId, message: toMessage(message) };
}

const threadQuery = (db: PlatformDb) =>
  db
    .selectFrom('chat_threads')
    .innerJoin('leads', 'leads.id', 'chat_threads.lead_id')
    .select([...threadColumns.map((column) => `chat_threads.${column}` as const), 'leads.mock']);

export async function findThread(db: PlatformDb, id: number): Promise<StoredChatThread | null> {
  const row = await threadQuery(db).where('chat_threads.id', '=', id).executeTakeFirst();
  return row ? toThread(row) : null;
}

export async function findThreadOfLead(db: PlatformDb, leadId: number): Promise<StoredChatThread | null> {
  const row = await threadQuery(db).where('chat_threads.lead_id', '=', leadId).executeTakeFirst();
  return row ? toThread(row) : null;
}

/** A conversation's messages after the given id, oldest first. */
export async function messagesAfter(db: PlatformDb, threadId: number, after: number, limit: number): Promise<StoredChatMessage[]> {
  const rows = await db
    .selectFrom('chat_messages')
    .select(messageColumns)
    .where('thread_id', '=', threadId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toMessage);
}

export async function findMessageByClientId(db: PlatformDb, threadId: number, clientMessageId: string): Promise<StoredChatMessage | null> {
  const row = await db
    .selectFrom('chat_messages')
    .select(messageColumns)
    .where('thread_id', '=', threadId)
    .where('client_message_id', '=', clientMessageId)
    .executeTakeFirst();
  return row ? toMessage(row) : null;
}

export type NewChatMessage = { author: ChatAuthor; authorName: string | null; body: string; clientMessageId: string | null };

export type AppendedMessage =
  | { kind: 'stored'; message: StoredChatMessage }
  /** The same client id was stored meanwhile (a retry racing the first): that message. */
  | { kind: 'retried'; message: StoredChatMessage }
  /** The conversation already holds `maxMessages`. */
  | { kind: 'full' };

/** Thrown to roll back the count when the insert finds the client id taken. */
class AlreadyStored extends Error {}

/**
 * Adds a message unless the conversation holds `maxMessages`: the count is raised first (on
 * PostgreSQL that locks the conversation's row, so two messages to one conversation take turns),
 * then the message is inserted; a client id already stored rolls both back.
 */
export async function appendMessage(
  db: PlatformDb,
  threadId: number,
  message: NewChatMessage,
  maxMessages: number,
  now: number,
): Promise<AppendedMessage> {
  try {
    return await db.transaction().execute(async (trx): Promise<AppendedMessage> => {
      const counted = await trx
        .updateTable('chat_threads')
        .set((eb) => ({ message_count: eb('message_count', '+', 1), updated_at: now, last_author: message.author }))
        .where('id', '=', threadId)
        .where('message_count', '<', maxMessages)
        .returning('id')
        .executeTakeFirst();
      if (!counted) return { kind: 'full' };
      const row = await trx
        .insertInto('chat_messages')
        .values({
          thread_id: threadId,
          author: message.author,
          author_name: message.authorName,
          body: message.body,
          client_message_id: message.clientMessageId,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['thread_id', 'client_message_id']).doNothing())
        .returning(messageColumns)
        .executeTakeFirst();
      if (!row) throw new AlreadyStored();
      return { kind: 'stored', message: toMessage(row) };
    });
  } catch (error) {
    if (!(error instanceof AlreadyStored) || message.clientMessageId === null) throw error;
    const first = await findMessageByClientId(db, threadId, message.clientMessageId);
    if (!first) throw error;
    return { kind: 'retried', message: first };
  }
}

export type ThreadFilter = {
  /** Only conversations whose latest message is the shopper's. */
  awaitingReply?: boolean;
  /** Only mock conversations (true), only real ones (false, the default), or both ('all'). */
  mock?: boolean | 'all';
};

/**
 * A page of a site's conversations, latest activity first by (updated_at, id). Those whose lead is
 * held as suspected spam are left out until the dealer releases the lead. A conversation that gets
 * a message while the dealer pages moves to the top: it is on the first page, not repeated later.
 */
export async function threadPage(
  db: PlatformDb,
  siteId: number,
  filter: ThreadFilter,
  page: Page,
): Promise<{ threads: StoredChatThread[]; next: PagePosition | null }> {
  const mock = filter.mock ?? false;
  let query = db
    .selectFrom('chat_threads')
    .select(threadColumns)
    .select((eb) => eb.selectFrom('leads').select('leads.mock').whereRef('leads.id', '=', 'chat_threads.lead_id').as('mock'))
    .where('site_id', '=', siteId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('leads')
          .select('leads.id')
          .whereRef('leads.id', '=', 'chat_threads.lead_id')
          .where('leads.spam_reason', 'is', null)
          .$if(mock !== 'all', (q) => q.where('leads.mock', '=', mock ? 1 : 0)),
      ),
    );
  if (filter.awaitingReply !== undefined) query = query.where('last_author', filter.awaitingReply ? '=' : '<>', 'shopper');
  if (page.after) query = query.where(pastPosition('updated_at', 'desc', page.after));
  const rows = await query
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const { rows: threads, next } = pageOf(rows.map(toThread), page.limit, (thread) => ({ key: thread.updated_at, id: thread.id }));
  return { threads, next };
}

/** The latest message of each of the conversations, by conversation id. */
export async function latestMessages(db: PlatformDb, threadIds: readonly number[]): Promise<Map<number, StoredChatMessage>> {
  if (threadIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('chat_messages')
    .select(messageColumns)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('chat_messages')
        .select((inner) => inner.fn.max('id').as('id'))
        .where('thread_id', 'in', threadIds)
        .groupBy('thread_id'),
    )
    .execute();
  return new Map(rows.map((row) => [Number(row.thread_id), toMessage(row)]));
}
