/**
 * A minimal SMTP server on 127.0.0.1 for tests of the `adf-email` target: it speaks just enough
 * ESMTP (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS, no auth) for nodemailer, keeps
 * every message it accepts, and can refuse recipients or stay silent to test failure outcomes.
 * Test support only: production code does not import it.
 */
import { createServer, type Server, type Socket } from 'node:net';

export type SinkMessage = { from: string; to: string[]; data: string };
export type SmtpSinkOptions = {
  /** The reply to every RCPT TO, e.g. '550 5.1.1 No such user' or '451 4.3.0 Try again later'; default 250. */
  rcptReply?: string;
  /** Accept connections but never greet (a hanging server). */
  silent?: boolean;
  /** Refuse a message larger than this many bytes with 552, as a mail server with a size limit does. */
  maxMessageBytes?: number;
};
export type SmtpSink = { url: string; port: number; messages: SinkMessage[]; close: () => Promise<void> };

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const sockets = new Set<Socket>();
  let queued = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (options.silent) return;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let envelope: { from: string; to: string[] } = { from: '', to: [] };
    let dataLines: string[] | null = null;
    reply('220 127.0.0.1 ESMTP test sink');
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (dataLines) {
          if (line === '.') {
            const data = dataLines.join('\r\n');
            dataLines = null;
            if (options.maxMessageBytes !== undefined && Buffer.byteLength(data) > options.maxMessageBytes) {
              envelope = { from: '', to: [] };
              reply('552 5.3.4 Message size exceeds fixed maximum message size');
              continue;
            }
            messages.push({ ...envelope, data });
            envelope = { from: '', to: [] };
            reply(`250 2.0.0 Ok: queued as SINK${++queued}`);
          } else {
            dataLines.push(line.startsWith('.') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          reply('250-127.0.0.1');
          reply('250-8BITMIME');
          reply('250 SIZE 10485760');
        } else if (verb === 'HELO') reply('250 127.0.0.1');
        else if (verb === 'MAIL') {
          envelope = { from: /<([^>]*)>/.exec(line)?.[1] ?? '', to: [] };
          reply('250 2.1.0 Ok');
        } else if (verb === 'RCPT') {
          const rcptReply = options.rcptReply ?? '250 2.1.5 Ok';
          if (rcptReply.startsWith('250')) envelope.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply(rcptReply);
        } else if (verb === 'DATA') {
          if (envelope.to.length === 0) reply('554 5.5.1 No valid recipients');
          else {
            dataLines = [];
            reply('354 End data with <CR><LF>.<CR><LF>');
          }
        } else if (verb === 'RSET') {
          envelope = { from: '', to: [] };
          reply('250 2.0.0 Ok');
        } else if (verb === 'NOOP') reply('250 2.0.0 Ok');
        else if (verb === 'QUIT') {
          reply('221 2.0.0 Bye');
          socket.end();
        } else reply('502 5.5.2 Command not recognised');
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
