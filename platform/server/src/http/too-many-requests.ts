import type { FastifyReply } from 'fastify';
import { retryAfterText } from '@dealer/leads/spam';

/**
 * The platform's 429: Retry-After in whole seconds, and a message that tells the shopper how long
 * to wait (`wait` is "2 minutes" style text) and what else they can do.
 */
export function tooManyRequests(reply: FastifyReply, retryAfterMs: number, message: (wait: string) => string) {
  return reply
    .code(429)
    .header('Retry-After', String(Math.ceil(retryAfterMs / 1000)))
    .send({ message: message(retryAfterText(retryAfterMs)) });
}
