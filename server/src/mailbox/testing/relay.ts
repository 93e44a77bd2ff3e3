import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface RelayedMessage {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP reply refusing one recipient: 4xx defers it, 5xx rejects it. */
export interface RelayRefusal {
  code: number;
  message: string;
}

/**
 * A local SMTP relay for tests: accepts (recording what it got) or refuses every message, or
 * answers each recipient as `mode` says (null accepts it).
 */
export async function startTestRelay(
  mode: 'accept' | 'refuse' | ((address: string) => RelayRefusal | null),
  hooks: {
    /** Before the 250 to DATA, e.g. to hold the sender there (crash tests); false drops the message unanswered. */
    beforeAnswer?: (message: RelayedMessage) => Promise<boolean | undefined> | boolean | undefined;
    /** Right after the 250 was written. */
    afterAnswer?: (message: RelayedMessage) => void;
  } = {},
): Promise<{ url: string; received: RelayedMessage[]; close(): Promise<void> }> {
  const received: RelayedMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (typeof mode === 'function') {
        const refusal = mode(address.address);
        if (!refusal) return callback();
        return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      }
      if (mode === 'refuse') {
        return callback(
          Object.assign(new Error('5.7.1 Relay access denied for test'), { responseCode: 550 }),
        );
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const message = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString(),
        };
        if ((await hooks.beforeAnswer?.(message)) === false)
          return callback(new Error('dropped by the test'));
        // Recorded when accepted: what the relay would go on to deliver.
        received.push(message);
        callback(null, 'queued as test');
        hooks.afterAnswer?.(message);
      });
    },
  });
  // A sender that dies mid-session (crash tests) resets its connection: not the relay's failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo)
    .port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
