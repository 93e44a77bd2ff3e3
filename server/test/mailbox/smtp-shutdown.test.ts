// SIGTERM's drain of the SMTP listener: closing it stops new connections, lets a message whose
// DATA is being sent finish and be stored (250), and answers any new command with 421.
import assert from 'node:assert/strict';
import { createConnection, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { startMailbox, type TestMailbox } from './app.ts';

let t: TestMailbox;
let inbox: { inbox_id: string };

before(async () => {
  t = await startMailbox();
  await t.listen();
  inbox = await t.createInbox(t.adminKey);
});
after(() => t.close());

/** A line-by-line SMTP client: `reply()` is the next complete reply (multi-line ones joined). */
function smtpClient(socket: Socket) {
  let buffer = '';
  const waiting: Array<(reply: string) => void> = [];
  const replies: string[] = [];
  socket.on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.search(/^\d{3} .*\r\n/m); end !== -1; end = buffer.search(/^\d{3} .*\r\n/m)) {
      const stop = buffer.indexOf('\r\n', end) + 2;
      const reply = buffer.slice(0, stop);
      buffer = buffer.slice(stop);
      const next = waiting.shift();
      if (next) next(reply);
      else replies.push(reply);
    }
  });
  return {
    reply: () =>
      new Promise<string>((resolve) => {
        const ready = replies.shift();
        if (ready !== undefined) resolve(ready);
        else waiting.push(resolve);
      }),
    send: (line: string) => socket.write(`${line}\r\n`),
  };
}

test('a message in DATA when the listener closes is stored; new commands get 421', async () => {
  const socket = createConnection({ host: '127.0.0.1', port: t.smtpPort });
  const smtp = smtpClient(socket);
  assert.match(await smtp.reply(), /^220 /);
  smtp.send('EHLO client.example.com');
  assert.match(await smtp.reply(), /^250[ -]/);
  smtp.send('MAIL FROM:<alice@example.com>');
  assert.match(await smtp.reply(), /^250[ -]/);
  smtp.send(`RCPT TO:<${inbox.inbox_id}>`);
  assert.match(await smtp.reply(), /^250[ -]/);
  smtp.send('DATA');
  assert.match(await smtp.reply(), /^354 /);
  smtp.send('From: alice@example.com\r\nSubject: Sent during shutdown\r\n');

  const closed = t.deps.smtp.close();
  // No new connections once closing.
  const refused = await new Promise<boolean>((resolve) => {
    const late = createConnection({ host: '127.0.0.1', port: t.smtpPort });
    late.once('error', () => resolve(true));
    late.once('data', () => {
      late.destroy();
      resolve(false);
    });
  });
  assert.ok(refused, 'a new connection is refused while the listener drains');

  smtp.send('Finished after the close began.\r\n.');
  assert.match(await smtp.reply(), /^250 /, 'the message in progress is accepted');
  smtp.send('MAIL FROM:<bob@example.com>');
  assert.match(await smtp.reply(), /^421 /);
  socket.end();
  await closed;

  const list = await t.request('GET', `/v0/inboxes/${inbox.inbox_id}/messages`, t.adminKey);
  assert.equal(list.status, 200);
  assert.equal((list.body as { count: number }).count, 1);
  assert.equal(
    (list.body as { messages: Array<{ subject: string }> }).messages[0]!.subject,
    'Sent during shutdown',
  );
});
