/**
 * Mailbox benchmark: 2,000 messages over 20 concurrent SMTP connections into the real listener,
 * parsed, threaded, stored (PostgreSQL when DATABASE_URL is set) and pushed to a WebSocket client.
 *
 * Prints messages/s stored and threaded, and the p50/p99 time from the end of DATA (the moment the
 * client's connection has taken the whole body, after MAIL FROM, RCPT TO and DATA were answered)
 * to the matching WebSocket event. The baseline, run
 * in the same server process on the same machine, is a bare smtp-server that accepts and discards
 * the same messages: the ratio says what parsing, threading, storing and eventing cost on top of
 * SMTP. The servers run in a child process (bench/mailbox/server.ts), so this load generator does
 * not share their event loop.
 *
 * Both servers first get WARMUP messages (200) that are not measured, so the figures are those of
 * a running server rather than of V8 compiling its code.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/mailbox/run.ts
 *   (MESSAGES, WARMUP, CONNECTIONS, INBOXES override the defaults)
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import WebSocket from 'ws';
import { startChild } from '../lib/child.ts';

const MESSAGES = Number(process.env.MESSAGES ?? 2_000);
const WARMUP = Number(process.env.WARMUP ?? 200);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);
const INBOXES = Number(process.env.INBOXES ?? 20);
const DOMAIN = 'bench.test';

interface Planned {
  to: string;
  raw: Buffer;
  messageId: string;
}

/** A realistic mix: new conversations, replies by In-Reply-To, broken chains (References), subject-only replies. */
function plan(): Planned[] {
  const out: Planned[] = [];
  const history: Array<{ inbox: string; messageId: string; subject: string; from: string }> = [];
  for (let i = 0; i < WARMUP + MESSAGES; i++) {
    const inbox = `bench-${i % INBOXES}@${DOMAIN}`;
    const earlier = history.filter((h) => h.inbox === inbox);
    const previous = earlier.length > 0 ? earlier[Math.floor(Math.random() * earlier.length)] : undefined;
    const kind = previous ? Math.random() : 0;
    const messageId = `<b${i}.${randomBytes(4).toString('hex')}@sender.example>`;
    const from = previous && kind > 0.4 ? previous.from : `person${i % 97}@sender.example`;
    const subject = previous && kind > 0.4 ? `Re: ${previous.subject}` : `Topic ${i}`;
    const headers = [
      `From: ${from}`,
      `To: ${inbox}`,
      `Subject: ${subject}`,
      `Message-ID: ${messageId}`,
      ...(previous && kind > 0.7
        ? [`In-Reply-To: ${previous.messageId}`, `References: ${previous.messageId}`]
        : []),
      ...(previous && kind > 0.55 && kind <= 0.7
        ? ['In-Reply-To: <lost@elsewhere>', `References: ${previous.messageId} <lost@elsewhere>`]
        : []),
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
    ];
    const body = `Message ${i}.\r\n${'Lorem ipsum dolor sit amet. '.repeat(20)}\r\n`;
    out.push({ to: inbox, raw: Buffer.from(`${headers.join('\r\n')}\r\n\r\n${body}`), messageId });
    history.push({ inbox, messageId, subject: subject.replace(/^Re: /, ''), from });
  }
  return out;
}

function connect(port: number): Promise<SMTPConnection> {
  const connection = new SMTPConnection({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    socketTimeout: 60_000,
  } as never);
  return new Promise((resolve, reject) => {
    connection.once('error', reject);
    connection.connect(() => resolve(connection));
  });
}

/** Sends every planned message over `connections` SMTP sessions; returns the wall time in ms. */
async function drive(
  port: number,
  messages: Planned[],
  onDataEnd: (m: Planned, at: number) => void,
): Promise<number> {
  const sessions = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect(port)));
  let next = 0;
  const started = performance.now();
  await Promise.all(
    sessions.map(async (session) => {
      while (next < messages.length) {
        const message = messages[next++]!;
        await new Promise<void>((resolve, reject) => {
          // The body is streamed so its end (after MAIL, RCPT and DATA were answered) can be timed.
          const body = new PassThrough();
          body.on('end', () => onDataEnd(message, performance.now()));
          body.end(message.raw);
          session.send({ from: 'sender@sender.example', to: [message.to] }, body, (error) =>
            error ? reject(error) : resolve(),
          );
        });
      }
    }),
  );
  const elapsed = performance.now() - started;
  for (const session of sessions) session.quit();
  return elapsed;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface ServerInfo {
  apiPort: number;
  smtpPort: number;
  baselinePort: number;
  adminKey: string;
  engine: string;
  bus: string;
}

async function main() {
  const { info, child } = await startChild<ServerInfo>('bench/mailbox/server.ts', {
    INBOXES: String(INBOXES),
  });
  // The child's last line (stored count, CPU); a child that dies without it fails the run.
  const closing = new Promise<{ stored: number; cpuMs: number; systemMs: number }>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => resolve(JSON.parse(line)));
    child.once('close', (code) => reject(new Error(`bench/mailbox/server.ts exited with ${code}`)));
  });
  const { apiPort, adminKey } = info;

  const planned = plan();
  const warmup = planned.slice(0, WARMUP);
  const messages = planned.slice(WARMUP);
  await drive(info.baselinePort, warmup, () => {});
  const baselineMs = await drive(info.baselinePort, messages, () => {});
  await drive(info.smtpPort, warmup, () => {});
  child.kill('SIGUSR2');

  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const matchedBy: Record<string, number> = {};
  let allReceived: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    allReceived = resolve;
  });
  const socket = new WebSocket(`ws://127.0.0.1:${apiPort}/v0/ws`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'subscribe', event_types: ['message.received'] }));
  await new Promise<void>((resolve) => socket.once('message', () => resolve()));
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    if (frame.type !== 'event') return;
    const started = sentAt.get(frame.message.message_id);
    if (started === undefined) return;
    latencies.push(performance.now() - started);
    matchedBy[frame.matched_by] = (matchedBy[frame.matched_by] ?? 0) + 1;
    if (latencies.length === messages.length) allReceived();
  });

  const elapsed = await drive(info.smtpPort, messages, (message, at) => sentAt.set(message.messageId, at));
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  socket.close();
  child.kill('SIGTERM');
  const { stored, cpuMs, systemMs } = await closing;

  const throughput = (messages.length / elapsed) * 1000;
  const baselineThroughput = (messages.length / baselineMs) * 1000;
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const lines = [
    `mailbox benchmark: ${messages.length} messages, ${CONNECTIONS} SMTP connections, ${INBOXES} inboxes, database ${info.engine}, bus ${info.bus}, servers in a child process`,
    `  stored and threaded: ${stored - warmup.length} messages (after ${warmup.length} warm-up) in ${(elapsed / 1000).toFixed(2)} s = ${throughput.toFixed(0)} msg/s (target >= 200)`,
    `  baseline (bare smtp-server, accept and discard): ${baselineThroughput.toFixed(0)} msg/s; ratio ${(throughput / baselineThroughput).toFixed(3)}`,
    `  end of DATA -> WebSocket event: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${latencies.length} events (target p99 < 100 ms)`,
    `  server CPU per message: ${(cpuMs / messages.length).toFixed(2)} ms (${(systemMs / messages.length).toFixed(2)} ms in the kernel); machine load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
    `  threading: ${Object.entries(matchedBy)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  ];
  console.log(lines.join('\n'));

  const ok =
    throughput >= 200 && p99 < 100 && latencies.length === messages.length && stored === planned.length;
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
