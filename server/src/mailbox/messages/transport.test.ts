import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifySmtpError, NoRelay } from './transport.ts';

test('SMTP failures: 5xx is permanent, 4xx and no reply at all are worth another try', () => {
  assert.equal(classifySmtpError({ responseCode: 550, response: '550 5.1.1 no such user' }), 'rejected');
  assert.equal(classifySmtpError({ responseCode: 554 }), 'rejected');
  assert.equal(classifySmtpError({ responseCode: 451, response: '451 4.7.1 greylisted' }), 'deferred');
  assert.equal(classifySmtpError({ responseCode: 421 }), 'deferred');
  // Connection refused, timeouts, TLS and socket errors carry no SMTP reply.
  assert.equal(classifySmtpError({ message: 'connect ECONNREFUSED 127.0.0.1:25' }), 'deferred');
  assert.equal(classifySmtpError({ message: 'Greeting never received' }), 'deferred');
});

test('without a relay every outside recipient is rejected for good, with the reason', async () => {
  const result = await new NoRelay().send(Buffer.from('x'), { from: 'a@mail.test', to: ['b@example.com'] });
  assert.deepEqual(
    result.recipients.map((r) => [r.address, r.outcome]),
    [['b@example.com', 'rejected']],
  );
  assert.match(result.recipients[0]!.response, /MAIL_RELAY_URL/);
});
