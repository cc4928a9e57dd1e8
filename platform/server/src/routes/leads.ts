import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refusalSchema } from '../http/zod-schemas';
import type { LeadReply } from '@dealer/leads/lead-service';
import { checkFieldsMessage } from '@dealer/leads/lead-service';
import {
  acceptedFilesText,
  cleanFileName,
  discardReceived,
  formatBytes,
  receiveFile,
  UploadError,
  uploadsRoot,
  type ReceivedFile,
} from '@dealer/leads/uploads';
import { UploadQuota } from '@dealer/leads/upload-quota';
import { siteUploadBytesSince } from '@dealer/db/lead-store';
import { checkUploadContents } from '../leads/upload-contents';
import type { PlatformContext } from '../platform-context';
import { clientAddressKey } from '../http/client-address';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The access level of the search routes (routes/meili/meili-access.ts). Named here because @fastify/multipart
     * adds an optional field to this interface, which makes TypeScript refuse route configs that
     * share no field with it.
     */
    access?: 'public' | 'search' | 'admin';
  }
}

const maxKeyLength = 200;
const day = 86_400_000;

/**
 * A multipart lead's text besides its files: far more than any form sends (a 20,000-character
 * message, 50 visited pages, a few dozen answers), and a bound on what one request can make the
 * server hold in memory. Form-serialised leads send one field per answer, hence the field count.
 */
export const maxLeadFields = 200;
export const maxLeadFieldBytes = 256 * 1024;

const notMultipartMessage = 'Send the enquiry and its files as multipart/form-data.';
const tooManyFieldsMessage = `The enquiry has too many fields: at most ${maxLeadFields} can be sent besides the files.`;
const unnamedFieldMessage = 'Every field of the enquiry needs a name (Content-Disposition: form-data; name="...").';
const fieldsTooLargeMessage = `The enquiry's fields are too large: at most ${maxLeadFieldBytes / 1024} KB of text can be sent besides the files.`;

/** Fields a form-serialised (multipart) lead sends as text that the lead contract holds as numbers or booleans. */
const numberFields = new Set(['lead_id', 'car_id', 'location_id', 'step_number', 'form_started_at']);
const booleanFields = new Set(['opt_in', 'form_completed', 'has_files']);

/**
 * A multipart body's text fields as a lead. The browser may send the lead as one JSON field named
 * `lead`, as `lead[field]` pairs (with `[]` lists and `[key]` objects), or as plain field names.
 * Null when the `lead` field is not one JSON object, or comes twice (which one would be meant?).
 */
export function formFieldsToLead(fields: readonly [string, string][]): Record<string, unknown> | null {
  const lead: Record<string, unknown> = {};
  let sawLeadField = false;
  for (const [name, value] of fields) {
    if (name === 'lead') {
      if (sawLeadField) return null;
      sawLeadField = true;
      try {
        const parsed: unknown = JSON.parse(value);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
        for (const [key, entry] of Object.entries(parsed)) if (key !== '__proto__') lead[key] = entry;
      } catch {
        return null;
      }
      continue;
    }
    if (name === 'update_token') continue;
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
    if (!match) continue;
    let segments = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    if (segments[0] === 'lead' && segments.length > 1) segments = segments.slice(1);
    const [head, ...rest] = segments;
    if (!head || head === '__proto__' || head === 'constructor' || head === 'prototype') continue;
    if (rest.length === 0) lead[head] = coerceFormValue(head, value);
    else if (rest.length === 1 && rest[0] === '') {
      const list = Array.isArray(lead[head]) ? (lead[head] as unknown[]) : [];
      list.push(value);
      lead[head] = list;
    } else if (rest.length === 1 && rest[0] !== '__proto__') {
      const existing = lead[head];
      const object =
        typeof existing === 'object' && existing !== null && !Array.isArray(existing) ? (existing as Record<string, unknown>) : {};
      object[rest[0]!] = value;
      lead[head] = object;
    }
  }
  return lead;
}

function coerceFormValue(name: string, value: string): unknown {
  if (numberFields.has(name) && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (booleanFields.has(name) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * The answer to a multipart body the parser could not read: its own limit errors, and the plain
 * errors busboy raises for a body that is not well-formed multipart (no or a wrong boundary, cut
 * short, a part without headers' end). Null for a failure on the server's side (the disk), which
 * stays a 500, as does a bug.
 */
function unreadableMultipart(
  error: unknown,
  uploads: { maxBytes: number; maxFiles: number },
): { status: 400 | 413; message: string } | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: string }).code;
  // A disk error (it names its syscall) or a bug (a TypeError...) is the server's, not the body's.
  if (!code?.startsWith('FST_') && (error.constructor !== Error || 'syscall' in error)) return null;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return { status: 400, message: `At most ${uploads.maxFiles} files can be sent with one enquiry.` };
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: 413, message: `Each file must be at most ${formatBytes(uploads.maxBytes)}.` };
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 413, message: tooManyFieldsMessage };
    case 'FST_PROTO_VIOLATION':
      return { status: 400, message: 'A field of the enquiry has a name that is not allowed.' };
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return { status: 400, message: 'A field of the enquiry sent as JSON is not valid JSON.' };
  }
  return {
    status: 400,
    message: `The enquiry could not be read (${error.message}). Send it and its files (${acceptedFilesText}) as multipart/form-data.`,
  };
}

async function send(reply: FastifyReply, result: LeadReply) {
  reply.header('Cache-Control', 'no-store');
  if ('headers' in result && result.headers) for (const [name, value] of Object.entries(result.headers)) reply.header(name, value);
  return reply.code(result.status).send(result.body);
}

/**
 * SPEC §7 lead calls: POST /api/leads (JSON `{ lead }`), POST /api/leads/with-files (multipart),
 * PUT /api/leads/:id; the same under /mock when LEADS_MOCK_MODE is on (stored with a mock flag,
 * never delivered). Every 2xx is sent only after the lead and its delivery jobs are committed.
 */
/**
 * The lead itself is judged by the lead pipeline (its 400 names the fields by the form's rules,
 * the same for JSON and multipart), so the body schema takes anything; the headers it reads are
 * declared, and checked by hand where a bad one has its own answer.
 */
const leadHeaders = z.looseObject({
  'idempotency-key': z.string().optional(),
  'x-lead-update-token': z.string().optional(),
  'user-agent': z.string().optional(),
});
const leadAnswers = {
  200: z.object({ id: z.number(), lead_id: z.number(), update_token: z.string() }),
  201: z.object({ id: z.number(), lead_id: z.number(), update_token: z.string() }),
  '4xx': refusalSchema,
  '5xx': refusalSchema,
};
const leadSchema = { body: z.unknown(), headers: leadHeaders, response: leadAnswers };
const leadOf = (body: unknown) => (body && typeof body === 'object' ? (body as { lead?: unknown }).lead : undefined);

export async function leadRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { service } = ctx.leads;
  const uploads = ctx.config.leads.uploads;
  const incomingDir = join(uploadsRoot(ctx.config.dataDir), '.incoming');

  await app.register(multipart, {
    limits: {
      fileSize: uploads.maxBytes,
      files: uploads.maxFiles + 1,
      fields: maxLeadFields,
      fieldSize: maxLeadFieldBytes,
      parts: uploads.maxFiles + 1 + maxLeadFields,
      headerPairs: 20,
    },
  });

  function idempotencyKeyOf(request: FastifyRequest, reply: FastifyReply): string | null | false {
    const raw = request.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined || key.trim() === '') return null;
    if (key.length > maxKeyLength || !/^[\x21-\x7e]+$/.test(key)) {
      void reply.code(400).send({ message: `The Idempotency-Key header must be 1 to ${maxKeyLength} visible ASCII characters.` });
      return false;
    }
    return key;
  }

  const userAgentOf = (request: FastifyRequest) => String(request.headers['user-agent'] ?? '');

  const addressQuota = new UploadQuota(uploads.maxBytesPerAddressPerDay, day);
  /**
   * What the next file of a request may weigh: the least of a file's own limit, what is left of the
   * lead's total, of the site's day (counted in the store, so every server sees it) and of this
   * address's day at the site; and what a file over it is told.
   */
  async function uploadAllowance(request: FastifyRequest) {
    const now = Date.now();
    const addressKey = `${request.site.id}|${clientAddressKey(request.ip)}`;
    const siteLeft = uploads.maxBytesPerSitePerDay - (await siteUploadBytesSince(ctx.db, request.site.id, now - day));
    const address = addressQuota.remaining(addressKey, now);
    const untilTomorrow = (resetsAt: number) => Math.max(60, Math.ceil((resetsAt - now) / 1000));
    return {
      forNextFile(receivedBytes: number) {
        const bounds = [
          {
            maxBytes: uploads.maxBytes,
            fileOwn: true,
            overLimit: (name: string) =>
              new UploadError(413, `"${name}" is larger than ${formatBytes(uploads.maxBytes)}. Please send a smaller file.`),
          },
          {
            maxBytes: uploads.maxBytesPerLead - receivedBytes,
            fileOwn: false,
            overLimit: () =>
              new UploadError(
                413,
                `The files together are larger than ${formatBytes(uploads.maxBytesPerLead)}. Please send fewer or smaller files.`,
              ),
          },
          {
            maxBytes: address.bytes - receivedBytes,
            fileOwn: false,
            overLimit: () =>
              new UploadError(
                429,
                `You have sent ${formatBytes(uploads.maxBytesPerAddressPerDay)} of files today, as much as we can take. Please send your enquiry without files, or try again tomorrow.`,
                untilTomorrow(address.resetsAt),
              ),
          },
          {
            maxBytes: siteLeft - receivedBytes,
            fileOwn: false,
            overLimit: () =>
              new UploadError(
                429,
                'The dealership cannot take more files today. Please send your enquiry without files, or try again tomorrow.',
                3600,
              ),
          },
        ];
        return bounds.reduce((least, bound) => (bound.maxBytes < least.maxBytes ? bound : least));
      },
      stored(bytes: number) {
        addressQuota.add(addressKey, bytes, now);
      },
    };
  }

  async function create(request: FastifyRequest, reply: FastifyReply, mock: boolean, lead: unknown, files: ReceivedFile[]) {
    const { site } = request;
    const key = idempotencyKeyOf(request, reply);
    if (key === false) return void (await discardReceived(files));
    return send(
      reply,
      await service.create({
        site,
        lead,
        files,
        idempotencyKey: key,
        userAgent: userAgentOf(request),
        ip: clientAddressKey(request.ip),
        mock,
      }),
    );
  }

  const prefixes = [{ prefix: '/api', mock: false }, ...(ctx.config.leads.mockMode ? [{ prefix: '/mock', mock: true }] : [])];
  for (const { prefix, mock } of prefixes) {
    app.post(`${prefix}/leads`, { config: { site: 'required' }, schema: leadSchema }, async (request, reply) =>
      create(request, reply, mock, leadOf(request.body), []),
    );

    app.post(
      `${prefix}/leads/with-files`,
      {
        config: { site: 'required' },
        schema: leadSchema,
        // A text body or none is not a lead, whatever the host: refused before the site is looked up
        // (other types without a parser are Fastify's own 415).
        preParsing: async (request, reply) => {
          const { headers } = request;
          const noBody =
            headers['content-type'] === undefined &&
            headers['transfer-encoding'] === undefined &&
            (headers['content-length'] ?? '0') === '0';
          if (request.mediaType === 'text/plain' || noBody) return reply.code(415).send({ message: notMultipartMessage });
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          // Without files a JSON body is a plain create; anything else is not a lead.
          const { body } = request;
          if (body && typeof body === 'object') return create(request, reply, mock, leadOf(body), []);
          return reply.code(415).send({ message: notMultipartMessage });
        }
        const fields: [string, string][] = [];
        const files: ReceivedFile[] = [];
        // busboy bounds each field, not their sum: the running total is ours.
        let fieldBytes = 0;
        const allowance = await uploadAllowance(request);
        // Whether the body was refused over a file (said beside the form's file field) or its text.
        let readingFile = false;
        try {
          for await (const part of request.parts()) {
            readingFile = part.type === 'file';
            if (part.type === 'file') {
              if (files.length >= uploads.maxFiles) {
                part.file.resume();
                throw new UploadError(400, `At most ${uploads.maxFiles} files can be sent with one enquiry.`);
              }
              const bound = allowance.forNextFile(files.reduce((sum, file) => sum + file.size, 0));
              if (bound.maxBytes <= 0) {
                part.file.resume();
                throw bound.overLimit(cleanFileName(part.filename));
              }
              const file = await receiveFile(part.file, {
                incomingDir,
                maxBytes: bound.maxBytes,
                originalName: part.filename,
                overLimit: bound.fileOwn ? undefined : bound.overLimit,
              });
              files.push(file);
              await checkUploadContents(file);
            } else {
              // busboy hands on a part whose Content-Disposition names no field with no name at all.
              if (typeof part.fieldname !== 'string' || part.fieldname === '') throw new UploadError(400, unnamedFieldMessage);
              const value = String(part.value ?? '');
              fieldBytes += Buffer.byteLength(part.fieldname) + Buffer.byteLength(value);
              if (part.valueTruncated || fieldBytes > maxLeadFieldBytes) throw new UploadError(413, fieldsTooLargeMessage);
              fields.push([part.fieldname, value]);
            }
          }
        } catch (error) {
          await discardReceived(files);
          const refused =
            error instanceof UploadError ? { status: error.statusCode, message: error.message } : unreadableMultipart(error, uploads);
          if (!refused) throw error;
          // The rest of the body is not read into memory: a refused request may still be sending.
          request.raw.unpipe();
          request.raw.resume();
          if (error instanceof UploadError && error.retryAfterSeconds !== undefined)
            void reply.header('Retry-After', String(error.retryAfterSeconds));
          // A file's refusal is said of the form's file field too, so the form shows it there, with everything typed kept.
          return reply
            .code(refused.status)
            .header('Cache-Control', 'no-store')
            .header('Connection', 'close')
            .send({ message: refused.message, ...(readingFile ? { fields: { files: refused.message } } : {}) });
        }
        const lead = formFieldsToLead(fields);
        if (lead === null) {
          await discardReceived(files);
          return reply.code(400).send({
            message: checkFieldsMessage,
            fields: { lead: 'The "lead" field must be sent once, holding the enquiry as a JSON object.' },
          });
        }
        const sent = await create(request, reply, mock, lead, files);
        if (reply.statusCode === 201) allowance.stored(files.reduce((sum, file) => sum + file.size, 0));
        return sent;
      },
    );

    app.put(
      `${prefix}/leads/:id`,
      { config: { site: 'required' }, schema: { ...leadSchema, params: z.object({ id: z.string() }) } },
      async (request, reply) => {
        const { site } = request;
        const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : NaN;
        if (!Number.isSafeInteger(id) || id <= 0)
          return reply.code(404).send({ message: `No lead ${request.params.id} was found on this site.` });
        const body = (request.body ?? {}) as { lead?: unknown; update_token?: unknown };
        const token = request.headers['x-lead-update-token'] ?? (typeof body.update_token === 'string' ? body.update_token : null);
        return send(
          reply,
          await service.update({
            site,
            id,
            lead: body.lead,
            token: token || null,
            userAgent: userAgentOf(request),
            ip: clientAddressKey(request.ip),
            mock,
          }),
        );
      },
    );
  }
}
