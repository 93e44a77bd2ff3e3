import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import WebSocket from 'ws';
import { buildMailboxApp } from '../../src/app/mailbox-app.ts';
import { FakeClock } from '../../src/core/clock.ts';
import type { Database } from '../../src/core/db/database.ts';
import type { AppInstance } from '../../src/core/http/types.ts';
import { createMailboxDeps, type MailboxDeps, type MailboxOverrides } from '../../src/mailbox/wiring.ts';
import { startPlatform, type TestPlatform } from '../harness.ts';

export interface TestMailbox {
  app: AppInstance;
  deps: MailboxDeps;
  clock: FakeClock;
  platform: TestPlatform;
  adminKey: string;
  mailDomain: string;
  /** A fresh, unused local part, so tests sharing one database never collide. */
  unique(prefix?: string): string;
  /** HTTP base URL, once listen() ran. */
  baseUrl: string;
  smtpPort: number;
  listen(): Promise<void>;
  request(
    method: string,
    url: string,
    token: string,
    payload?: unknown,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  createInbox(token: string, body?: Record<string, unknown>): Promise<any>;
  createScopedKey(body: Record<string, unknown>): Promise<{ key_id: string; api_key: string }>;
  sendSmtp(mail: {
    from: string;
    to: string | string[];
    subject: string;
    text?: string;
    headers?: Record<string, string>;
    messageId?: string;
    inReplyTo?: string;
    references?: string;
    attachments?: Array<{ filename: string; content: string }>;
  }): Promise<unknown>;
  openSocket(
    path: string,
    token?: string,
    viaQuery?: boolean,
  ): Promise<{
    socket: WebSocket;
    frames: any[];
    next(predicate?: (frame: any) => boolean, timeoutMs?: number): Promise<any>;
  }>;
  close(): Promise<void>;
}

export async function startMailbox(
  options: {
    clock?: FakeClock;
    overrides?: MailboxOverrides;
    env?: Record<string, string>;
    /** A database of the test's own (e.g. one a delivery worker may drain entirely). */
    database?: Database;
  } = {},
): Promise<TestMailbox> {
  const adminKey = `admin_${randomBytes(16).toString('hex')}`;
  const mailDomain = 'mail.test';
  const clock = options.clock ?? new FakeClock(new Date());
  const platform = await startPlatform({
    clock,
    database: options.database,
    env: { MAILBOX_ADMIN_KEY: adminKey, MAIL_DOMAIN: mailDomain, ...options.env },
  });
  const deps = await createMailboxDeps(platform.deps, {
    eventChannel: `mailbox_events_t${randomBytes(6).toString('hex')}`,
    ...options.overrides,
  });
  const app = await buildMailboxApp(deps);
  await app.ready();
  let counter = 0;
  const run = randomBytes(4).toString('hex');
  const mailbox: TestMailbox = {
    app,
    deps,
    clock,
    platform,
    adminKey,
    mailDomain,
    baseUrl: '',
    smtpPort: 0,
    unique(prefix = 'agent') {
      counter += 1;
      return `${prefix}-${run}-${counter}`;
    },
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      mailbox.baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      mailbox.smtpPort = await deps.smtp.listen(0, '127.0.0.1');
    },
    async request(method, url, token, payload) {
      const response = await app.inject({
        method: method as 'GET',
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
      let body: unknown = response.body;
      try {
        body = response.body ? JSON.parse(response.body) : null;
      } catch {}
      return { status: response.statusCode, body, headers: response.headers };
    },
    async createInbox(token, body = {}) {
      const response = await mailbox.request('POST', '/v0/inboxes', token, {
        username: mailbox.unique(),
        ...body,
      });
      if (response.status !== 201) throw new Error(`inbox creation failed: ${JSON.stringify(response.body)}`);
      return response.body;
    },
    async createScopedKey(body) {
      const response = await mailbox.request('POST', '/v0/api-keys', adminKey, body);
      if (response.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(response.body)}`);
      return response.body;
    },
    async sendSmtp(mail) {
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: mailbox.smtpPort,
        secure: false,
        ignoreTLS: true,
      });
      try {
        return await transport.sendMail({
          ...mail,
          ...(mail.messageId ? { messageId: mail.messageId } : {}),
        });
      } finally {
        transport.close();
      }
    },
    async openSocket(path, token = adminKey, viaQuery = false) {
      const url = `${mailbox.baseUrl.replace('http', 'ws')}${path}${viaQuery ? `${path.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(token)}` : ''}`;
      const socket = new WebSocket(url, viaQuery ? {} : { headers: { authorization: `Bearer ${token}` } });
      const frames: any[] = [];
      const waiters: Array<{ predicate: (frame: any) => boolean; resolve: (frame: any) => void }> = [];
      let seen = 0;
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        frames.push(frame);
        for (const waiter of [...waiters]) {
          if (waiter.predicate(frame)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(frame);
          }
        }
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
        socket.once('unexpected-response', (_req, res) =>
          reject(new Error(`upgrade refused with ${res.statusCode}`)),
        );
      });
      return {
        socket,
        frames,
        next(predicate = () => true, timeoutMs = 5_000) {
          const already = frames.slice(seen).find(predicate);
          if (already) {
            seen = frames.indexOf(already) + 1;
            return Promise.resolve(already);
          }
          return new Promise((resolve, reject) => {
            const timer = setTimeout(
              () =>
                reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`)),
              timeoutMs,
            );
            waiters.push({
              predicate,
              resolve: (frame) => {
                clearTimeout(timer);
                seen = frames.indexOf(frame) + 1;
                resolve(frame);
              },
            });
          });
        },
      };
    },
    async close() {
      await deps.smtp.close().catch(() => {});
      await app.close();
      await platform.close();
    },
  };
  return mailbox;
}
