import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import nodemailer from 'nodemailer';
import { openTestKernel, type TestKernel } from '../testing/kernel.ts';
import { SmtpListener } from './listener.ts';

function selfSigned(): { key: Buffer; cert: Buffer } | null {
  const dir = mkdtempSync(join(tmpdir(), 'smtp-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=mail.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tls = selfSigned();
let kernel: TestKernel;
let secured: SmtpListener;
let plain: SmtpListener;
let securedPort = 0;
let plainPort = 0;

before(async () => {
  kernel = await openTestKernel();
  await kernel.addInbox('tls@mail.test');
  const common = {
    db: kernel.database.db,
    inbound: kernel.inbound,
    mailDomain: 'mail.test',
    maxMessageBytes: 1024 * 1024,
  };
  plain = new SmtpListener({ ...common, tls: null });
  plainPort = await plain.listen(0, '127.0.0.1');
  if (tls) {
    secured = new SmtpListener({ ...common, tls });
    securedPort = await secured.listen(0, '127.0.0.1');
  }
});
after(async () => {
  await plain.close();
  await secured?.close();
  await kernel.close();
});

test('with a certificate configured the listener upgrades with STARTTLS', {
  skip: tls ? false : 'openssl not available',
}, async () => {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: securedPort,
    secure: false,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
  });
  const info = await transport.sendMail({
    from: 'a@example.com',
    to: 'tls@mail.test',
    subject: 'over TLS',
    text: 'secret',
  });
  transport.close();
  assert.match(String(info.response), /^250/);
  const stored = await kernel.database.db
    .selectFrom('mailbox_messages')
    .select('subject')
    .where('inbox_id', '=', 'tls@mail.test')
    .execute();
  assert.deepEqual(
    stored.map((r) => r.subject),
    ['over TLS'],
  );
});

test('without a certificate STARTTLS is not offered', async () => {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: plainPort,
    secure: false,
    requireTLS: true,
  });
  await assert.rejects(
    transport.sendMail({ from: 'a@example.com', to: 'tls@mail.test', subject: 'x', text: 'x' }),
  );
  transport.close();
});
