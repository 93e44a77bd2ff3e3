// AgentMail's own Node SDK (npm `agentmail`, unchanged) against the mailbox service listening on
// loopback (docs/mailbox.md, "AgentMail SDK"): its inbox, pod, thread, message, send, reply, draft
// and webhook calls, one after the other, each checked twice against the SDK's own response
// schemas. The SDK parses with `skipValidation: true`, which only warns about a wrong type and says
// nothing about a missing required field; here every response is parsed again with the same
// options and validation on, and a warning or an error is a failure, except the differences the
// document lists (each asserted exactly). Outbound mail goes to a local test relay.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AgentMailClient, AgentMailError, serialization } from 'agentmail';
import { type MailRelay, SmtpRelay } from '../../src/mailbox/messages/transport.ts';
import { startTestRelay } from '../../src/mailbox/testing/relay.ts';
import { startMailbox, type TestMailbox } from './app.ts';

/** The SDK's response schemas, as far as this test needs them. */
interface ResponseSchema {
  parse(
    raw: unknown,
    options: object,
  ): { ok: true } | { ok: false; errors: Array<{ path: string[]; message: string }> };
}

/** The options the SDK parses responses with, validation included. */
const STRICT = {
  unrecognizedObjectKeys: 'passthrough',
  allowUnrecognizedUnionMembers: true,
  allowUnrecognizedEnumValues: true,
  skipValidation: false,
  breadcrumbsPrefix: ['response'],
};

/** What docs/mailbox.md lists as differing from AgentMail, as the SDK's validator words it. */
const NO_POD = 'Missing required key "pod_id"';
const NO_SECRET = 'Missing required key "secret"';

describe('the AgentMail Node SDK against /v0 on a listening server', () => {
  let t: TestMailbox;
  let relayServer: Awaited<ReturnType<typeof startTestRelay>>;
  let client: AgentMailClient;
  let key: string;
  const s = serialization;
  /** Every request the SDK made, and the JSON of the last answer. */
  const requested: string[] = [];
  let answered: { status: number; body: unknown } | undefined;
  /** The SDK's own "Failed to validate." warnings. */
  const warnings: string[] = [];
  const warn = console.warn;
  /** The SDK calls made and passed, by name. */
  const passed = new Set<string>();

  /**
   * Runs one SDK call: it must succeed, its parser must not warn, and its answer must pass the
   * SDK's schema with validation on, but for `differences` (the validator's words, exactly).
   */
  async function call<T>(
    name: string,
    schema: ResponseSchema | null,
    run: () => Promise<T>,
    differences: (body: any) => string[] = () => [],
  ): Promise<T> {
    answered = undefined;
    const warned = warnings.length;
    let value: T;
    try {
      value = await run();
    } catch (error) {
      if (error instanceof AgentMailError) {
        assert.fail(`${name}: ${error.statusCode} ${JSON.stringify(error.body)}`);
      }
      throw error;
    }
    assert.deepEqual(warnings.slice(warned), [], `${name}: the SDK's parser warned`);
    if (schema) {
      // Set by the recording fetch meanwhile (which the compiler cannot see).
      const last = answered as { status: number; body: unknown } | undefined;
      assert.ok(last, `${name}: answered`);
      const parsed = schema.parse(last.body, STRICT);
      const errors = parsed.ok ? [] : parsed.errors.map((e) => `${e.path.join('.')}: ${e.message}`);
      assert.deepEqual(errors, differences(last.body), `${name}: the SDK's validator`);
    }
    passed.add(name);
    return value;
  }

  /** A call the service refuses on purpose: the SDK throws its error with the service's body. */
  async function refused(name: string, run: () => Promise<unknown>): Promise<AgentMailError> {
    const error = await run().then(
      () => assert.fail(`${name} succeeded`),
      (error: unknown) => error,
    );
    assert.ok(error instanceof AgentMailError, `${name}: ${error}`);
    passed.add(name);
    return error;
  }

  /** The validator's words for each inbox of a list that belongs to no pod. */
  const unpodded = (body: { inboxes: Array<{ pod_id?: string }> }) =>
    body.inboxes.flatMap((inbox, i) =>
      inbox.pod_id === undefined ? [`response.inboxes.[${i}]: ${NO_POD}`] : [],
    );

  /** Mail from the outside, over SMTP; its Message-ID. */
  async function receive(
    to: string,
    mail: { from: string; subject: string; text: string; replyTo?: string },
  ) {
    const messageId = `<${t.unique('in')}@example.com>`;
    await t.sendSmtp({
      from: mail.from,
      to,
      subject: mail.subject,
      text: mail.text,
      messageId,
      ...(mail.replyTo ? { headers: { 'Reply-To': mail.replyTo } } : {}),
    });
    // Lists are newest first: the next message is a second later on the test's clock.
    t.clock.advance(1000);
    return messageId;
  }

  before(async () => {
    console.warn = (...args: unknown[]) => {
      if (String(args[0]).startsWith('Failed to validate.')) warnings.push(args.map(String).join(' '));
      else warn(...args);
    };
    relayServer = await startTestRelay('accept');
    const smtp = new SmtpRelay(relayServer.url);
    const relay: MailRelay = {
      configured: true,
      send: (raw, envelope, dkim) => smtp.send(raw, envelope, dkim),
      close() {},
    };
    t = await startMailbox({ overrides: { relay } });
    await t.listen();
    // An integrator's key: a platform key of a workspace of its own.
    key = (await t.platform.createApiKey(await t.platform.signup())).secret;
    const recording: typeof fetch = async (input, init) => {
      requested.push(`${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)}`);
      const response = await fetch(input, init);
      const text = await response.clone().text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {}
      answered = { status: response.status, body };
      return response;
    };
    client = new AgentMailClient({ baseUrl: t.baseUrl, apiKey: key, maxRetries: 0, fetch: recording });
  });
  after(async () => {
    console.warn = warn;
    await t.close();
    await relayServer.close();
  });

  test('pods: create, list, get; delete refused while the pod has an inbox, then done', async () => {
    const clientId = t.unique('tenant');
    const pod = await call('pods.create', s.pods.Pod, () =>
      client.pods.create({ name: 'Customer 42', clientId }),
    );
    assert.equal(pod.name, 'Customer 42');
    assert.equal(pod.clientId, clientId);
    assert.ok(pod.createdAt instanceof Date);
    const listed = await call('pods.list', s.pods.ListPodsResponse, () => client.pods.list());
    assert.ok(listed.pods.some((p) => p.podId === pod.podId));
    const got = await call('pods.get', s.pods.Pod, () => client.pods.get(pod.podId));
    assert.equal(got.name, 'Customer 42');

    // The SDK names a pod only on /pods/{pod_id}/inboxes, which the service does not offer: the
    // inbox is created over REST, then read through the SDK, pod_id and all.
    const inbox = await t.createInbox(key, { pod_id: pod.podId });
    const read = await call('inboxes.get (in a pod)', s.inboxes.Inbox, () =>
      client.inboxes.get(inbox.inbox_id),
    );
    assert.equal(read.podId, pod.podId);
    const inPod = await call('inboxes.list (pod_id)', s.inboxes.ListInboxesResponse, () =>
      client.inboxes.list({ limit: 10 }, { queryParams: { pod_id: pod.podId } }),
    );
    assert.deepEqual(
      inPod.inboxes.map((i) => i.inboxId),
      [inbox.inbox_id],
    );

    const conflict = await refused('pods.delete (not empty)', () => client.pods.delete(pod.podId));
    assert.equal(conflict.statusCode, 409);
    const { error } = conflict.body as { error: { code: string; message: string } };
    assert.equal(error.code, 'resource_conflict');
    assert.match(error.message, /still has 1 inbox: delete/);
    await call('inboxes.delete (in a pod)', null, () => client.inboxes.delete(inbox.inbox_id));
    await call('pods.delete', null, () => client.pods.delete(pod.podId));
    const gone = await refused('pods.get (deleted)', () => client.pods.get(pod.podId));
    assert.equal(gone.statusCode, 404);
  });

  test('inboxes: create, list, get, update (and the empty update), delete', async () => {
    const username = t.unique('sdk');
    const inbox = await call(
      'inboxes.create',
      s.inboxes.Inbox,
      () =>
        client.inboxes.create({ username, domain: t.mailDomain, displayName: 'Desk', clientId: username }),
      () => [`response: ${NO_POD}`],
    );
    assert.equal(inbox.inboxId, `${username}@${t.mailDomain}`);
    assert.equal(inbox.email, inbox.inboxId);
    assert.equal(inbox.displayName, 'Desk');
    assert.equal(inbox.podId, undefined, 'no pod: no pod_id (not null)');
    const again = await call(
      'inboxes.create (same client_id)',
      s.inboxes.Inbox,
      () => client.inboxes.create({ username: t.unique('other'), clientId: username }),
      () => [`response: ${NO_POD}`],
    );
    assert.equal(again.inboxId, inbox.inboxId, 'client_id makes creation idempotent');

    const listed = await call(
      'inboxes.list',
      s.inboxes.ListInboxesResponse,
      () => client.inboxes.list(),
      unpodded,
    );
    assert.ok(listed.inboxes.some((i) => i.inboxId === inbox.inboxId));
    assert.equal(typeof listed.count, 'number');
    const got = await call(
      'inboxes.get',
      s.inboxes.Inbox,
      () => client.inboxes.get(inbox.inboxId),
      () => [`response: ${NO_POD}`],
    );
    assert.deepEqual(got, inbox);

    const renamed = await call(
      'inboxes.update',
      s.inboxes.Inbox,
      () => client.inboxes.update(inbox.inboxId, { displayName: 'Front desk' }),
      () => [`response: ${NO_POD}`],
    );
    assert.equal(renamed.displayName, 'Front desk');
    const unchanged = await call(
      'inboxes.update ({})',
      s.inboxes.Inbox,
      () => client.inboxes.update(inbox.inboxId, {}),
      () => [`response: ${NO_POD}`],
    );
    assert.deepEqual(unchanged, renamed, 'an empty update answers the inbox as it is');
    // A field of the SDK's the service does not know is refused by name, as every unknown field.
    const unknown = await refused('inboxes.update (metadata)', () =>
      client.inboxes.update(inbox.inboxId, { metadata: { team: 'sales' } }),
    );
    assert.equal(unknown.statusCode, 400);
    assert.equal((unknown.body as { error: { param: string } }).error.param, 'metadata');

    await call('inboxes.delete', null, () => client.inboxes.delete(inbox.inboxId));
    const gone = await refused('inboxes.get (deleted)', () => client.inboxes.get(inbox.inboxId));
    assert.equal(gone.statusCode, 404);
  });

  test('messages and threads: list, get, labels (and the empty update), the workspace thread list, delete', async () => {
    const inbox = await t.createInbox(key);
    const first = await receive(inbox.inbox_id, {
      from: 'Alice <alice@example.com>',
      subject: 'Quote',
      text: 'What does it cost?',
    });
    const second = await receive(inbox.inbox_id, {
      from: 'Bob <bob@example.com>',
      subject: 'Hi',
      text: 'Hello',
    });

    const messages = await call('inboxes.messages.list', s.ListMessagesResponse, () =>
      client.inboxes.messages.list(inbox.inbox_id),
    );
    assert.deepEqual(
      messages.messages.map((m) => m.messageId),
      [second, first],
    );
    const message = await call('inboxes.messages.get', s.Message, () =>
      client.inboxes.messages.get(inbox.inbox_id, first),
    );
    assert.equal(message.subject, 'Quote');
    assert.equal(message.from, 'Alice <alice@example.com>');
    assert.deepEqual(message.to, [inbox.inbox_id]);
    assert.ok(message.labels.includes('unread'));
    assert.ok(message.timestamp instanceof Date);

    const read = await call('inboxes.messages.update', s.UpdateMessageResponse, () =>
      client.inboxes.messages.update(inbox.inbox_id, first, {
        addLabels: ['quotes'],
        removeLabels: ['unread'],
      }),
    );
    assert.deepEqual(read.labels, ['received', 'quotes']);
    const same = await call('inboxes.messages.update ({})', s.UpdateMessageResponse, () =>
      client.inboxes.messages.update(inbox.inbox_id, first, {}),
    );
    assert.deepEqual(same.labels, ['received', 'quotes'], 'an empty update changes no label');

    const threads = await call('inboxes.threads.list', s.ListThreadsResponse, () =>
      client.inboxes.threads.list(inbox.inbox_id),
    );
    assert.equal(threads.threads.length, 2);
    const thread = await call('inboxes.threads.get', s.Thread, () =>
      client.inboxes.threads.get(inbox.inbox_id, message.threadId),
    );
    assert.equal(thread.count, 1);
    assert.deepEqual(
      thread.messages.map((m) => m.messageId),
      [first],
    );
    const everywhere = await call('threads.list', s.ListThreadsResponse, () =>
      client.threads.list({ limit: 100 }),
    );
    assert.ok(everywhere.threads.some((th) => th.threadId === message.threadId));

    await call('inboxes.messages.delete', null, () => client.inboxes.messages.delete(inbox.inbox_id, second));
    const left = await call('inboxes.messages.list (after delete)', s.ListMessagesResponse, () =>
      client.inboxes.messages.list(inbox.inbox_id),
    );
    assert.deepEqual(
      left.messages.map((m) => m.messageId),
      [first],
      'the deleted message is in the trash, out of the list',
    );
    await call('inboxes.threads.delete', null, () =>
      client.inboxes.threads.delete(inbox.inbox_id, message.threadId),
    );
    const none = await call('inboxes.threads.list (after delete)', s.ListThreadsResponse, () =>
      client.inboxes.threads.list(inbox.inbox_id),
    );
    assert.deepEqual(none.threads, []);
  });

  test('send and reply: a reply without recipients goes to Reply-To, else From; mail to itself is answered to itself', async () => {
    const inbox = await t.createInbox(key, { display_name: 'Agent' });
    const relayed = (address: string) => relayServer.received.filter((m) => m.to.includes(address));

    const sent = await call('inboxes.messages.send', s.SendMessageResponse, () =>
      client.inboxes.messages.send(inbox.inbox_id, {
        to: 'carol@example.com',
        cc: ['dave@example.com'],
        subject: 'Offer',
        text: 'Here is the offer.',
        html: '<p>Here is the offer.</p>',
        labels: ['offers'],
      }),
    );
    assert.ok(sent.messageId && sent.threadId);
    const stored = await call('inboxes.messages.get (sent)', s.Message, () =>
      client.inboxes.messages.get(inbox.inbox_id, sent.messageId),
    );
    assert.deepEqual(stored.to, ['carol@example.com']);
    assert.ok(stored.labels.includes('sent') && stored.labels.includes('offers'));
    assert.equal(relayed('carol@example.com').length, 1, 'the relay got it');

    const recipientsOf = async (name: string, reply: Promise<{ messageId: string; threadId: string }>) => {
      const answer = await call(name, s.SendMessageResponse, () => reply);
      const message = await call(`${name}: get`, s.Message, () =>
        client.inboxes.messages.get(inbox.inbox_id, answer.messageId),
      );
      return { answer, message };
    };

    // Reply-To wins over From.
    const withReplyTo = await receive(inbox.inbox_id, {
      from: 'Alice <alice@example.com>',
      replyTo: 'desk@example.com',
      subject: 'Question',
      text: 'Can you help?',
    });
    const toReplyTo = await recipientsOf(
      'inboxes.messages.reply (no recipients, Reply-To)',
      client.inboxes.messages.reply(inbox.inbox_id, withReplyTo, { text: 'Sure.' }),
    );
    assert.deepEqual(toReplyTo.message.to, ['desk@example.com']);
    assert.equal(toReplyTo.message.subject, 'Re: Question');
    assert.equal(toReplyTo.message.inReplyTo, withReplyTo);
    assert.equal(relayed('desk@example.com').length, 1);
    const original = await call('inboxes.messages.get (original)', s.Message, () =>
      client.inboxes.messages.get(inbox.inbox_id, withReplyTo),
    );
    assert.equal(toReplyTo.answer.threadId, original.threadId, 'the reply joins the thread');

    // Without Reply-To: the sender.
    const plain = await receive(inbox.inbox_id, {
      from: 'Bob <bob@example.com>',
      subject: 'Ping',
      text: 'Ping',
    });
    const toFrom = await recipientsOf(
      'inboxes.messages.reply (no recipients, From)',
      client.inboxes.messages.reply(inbox.inbox_id, plain, { text: 'Pong' }),
    );
    assert.deepEqual(toFrom.message.to, ['Bob <bob@example.com>']);
    assert.equal(relayed('bob@example.com').length, 1);

    // Mail the inbox sent to itself: the reply goes to the inbox (delivered here, not relayed).
    const toSelf = await call('inboxes.messages.send (to itself)', s.SendMessageResponse, () =>
      client.inboxes.messages.send(inbox.inbox_id, {
        to: inbox.inbox_id,
        subject: 'Note to self',
        text: 'Remember',
      }),
    );
    const relayedBefore = relayServer.received.length;
    const selfReply = await recipientsOf(
      'inboxes.messages.reply (no recipients, to itself)',
      client.inboxes.messages.reply(inbox.inbox_id, toSelf.messageId, { text: 'Done' }),
    );
    assert.deepEqual(selfReply.message.to, [`Agent <${inbox.inbox_id}>`]);
    assert.equal(relayServer.received.length, relayedBefore, 'an inbox of the service is not relayed');

    // Explicit recipients are kept; reply_all adds the original To and Cc.
    const explicit = await recipientsOf(
      'inboxes.messages.reply (to)',
      client.inboxes.messages.reply(inbox.inbox_id, plain, {
        to: 'erin@example.com',
        text: 'Looping in Erin',
      }),
    );
    assert.deepEqual(explicit.message.to, ['erin@example.com']);
    const everyone = await receive(inbox.inbox_id, {
      from: 'Frank <frank@example.com>',
      subject: 'Team',
      text: 'All of you',
    });
    const all = await recipientsOf(
      'inboxes.messages.reply (reply_all)',
      client.inboxes.messages.reply(inbox.inbox_id, everyone, { text: 'Noted', replyAll: true }),
    );
    assert.deepEqual(all.message.to, ['Frank <frank@example.com>']);

    const forwarded = await recipientsOf(
      'inboxes.messages.forward',
      client.inboxes.messages.forward(inbox.inbox_id, plain, { to: 'gina@example.com', text: 'FYI' }),
    );
    assert.deepEqual(forwarded.message.to, ['gina@example.com']);
    assert.equal(forwarded.message.subject, 'Fwd: Ping');

    // Nothing left the machine: every SDK request went to the loopback server, and mail to the relay.
    assert.ok(requested.length > 0);
    for (const request of requested) assert.ok(request.includes(`${t.baseUrl}/v0/`), request);
  });

  test('drafts: create, get, list, update (and the empty update), send, delete', async () => {
    const inbox = await t.createInbox(key);
    const draft = await call('inboxes.drafts.create', s.Draft, () =>
      client.inboxes.drafts.create(inbox.inbox_id, {
        to: ['hank@example.com'],
        subject: 'Draft',
        text: 'First version',
        labels: ['later'],
        clientId: t.unique('draft'),
      }),
    );
    assert.deepEqual(draft.to, ['hank@example.com']);
    const got = await call('inboxes.drafts.get', s.Draft, () =>
      client.inboxes.drafts.get(inbox.inbox_id, draft.draftId),
    );
    assert.equal(got.text, 'First version');
    const listed = await call('inboxes.drafts.list', s.ListDraftsResponse, () =>
      client.inboxes.drafts.list(inbox.inbox_id),
    );
    assert.deepEqual(
      listed.drafts.map((d) => d.draftId),
      [draft.draftId],
    );
    const updated = await call('inboxes.drafts.update', s.Draft, () =>
      client.inboxes.drafts.update(inbox.inbox_id, draft.draftId, {
        subject: 'Final',
        text: 'Second version',
      }),
    );
    assert.equal(updated.subject, 'Final');
    const same = await call('inboxes.drafts.update ({})', s.Draft, () =>
      client.inboxes.drafts.update(inbox.inbox_id, draft.draftId, {}),
    );
    assert.deepEqual(same, updated, 'an empty update answers the draft as it is');

    const sent = await call('inboxes.drafts.send', s.SendMessageResponse, () =>
      client.inboxes.drafts.send(inbox.inbox_id, draft.draftId, {}),
    );
    const message = await call('inboxes.messages.get (draft sent)', s.Message, () =>
      client.inboxes.messages.get(inbox.inbox_id, sent.messageId),
    );
    assert.equal(message.subject, 'Final');
    assert.ok(relayServer.received.some((m) => m.to.includes('hank@example.com')));
    const gone = await refused('inboxes.drafts.get (sent)', () =>
      client.inboxes.drafts.get(inbox.inbox_id, draft.draftId),
    );
    assert.equal(gone.statusCode, 404, 'a sent draft is gone');

    const other = await call('inboxes.drafts.create (to delete)', s.Draft, () =>
      client.inboxes.drafts.create(inbox.inbox_id, { subject: 'Never mind' }),
    );
    await call('inboxes.drafts.delete', null, () =>
      client.inboxes.drafts.delete(inbox.inbox_id, other.draftId),
    );
    const empty = await call('inboxes.drafts.list (after delete)', s.ListDraftsResponse, () =>
      client.inboxes.drafts.list(inbox.inbox_id),
    );
    assert.deepEqual(empty.drafts, []);
  });

  test('webhooks: create, list, get, update (and the empty update), delete; the secret only on create', async () => {
    const inbox = await t.createInbox(key);
    // Loopback, which the test harness allows (OUTBOUND_ALLOW_CIDRS); no worker delivers here.
    const url = 'http://127.0.0.1:9/agentmail-hook';
    const noSecret = () => [`response: ${NO_SECRET}`];
    const hook = await call('webhooks.create', s.webhooks.Webhook, () =>
      client.webhooks.create({
        url,
        eventTypes: ['message.received', 'message.sent'],
        inboxIds: [inbox.inbox_id],
        clientId: t.unique('hook'),
      }),
    );
    assert.match(hook.secret, /^whsec_/);
    assert.deepEqual(hook.inboxIds, [inbox.inbox_id]);
    const listed = await call(
      'webhooks.list',
      s.webhooks.ListWebhooksResponse,
      () => client.webhooks.list(),
      (body) => body.webhooks.map((_: unknown, i: number) => `response.webhooks.[${i}]: ${NO_SECRET}`),
    );
    assert.ok(listed.webhooks.some((w) => w.webhookId === hook.webhookId));
    const got = await call(
      'webhooks.get',
      s.webhooks.Webhook,
      () => client.webhooks.get(hook.webhookId),
      noSecret,
    );
    assert.deepEqual(got.eventTypes, ['message.received', 'message.sent']);
    const narrowed = await call(
      'webhooks.update',
      s.webhooks.Webhook,
      () => client.webhooks.update(hook.webhookId, { eventTypes: ['message.received'] }),
      noSecret,
    );
    assert.deepEqual(narrowed.eventTypes, ['message.received']);
    const same = await call(
      'webhooks.update ({})',
      s.webhooks.Webhook,
      () => client.webhooks.update(hook.webhookId, {}),
      noSecret,
    );
    assert.deepEqual(same, narrowed, 'an empty update answers the webhook as it is');
    await call('webhooks.delete', null, () => client.webhooks.delete(hook.webhookId));
    const gone = await refused('webhooks.get (deleted)', () => client.webhooks.get(hook.webhookId));
    assert.equal(gone.statusCode, 404);
  });

  test('every call of the walk ran and passed', () => {
    // 31 methods of the SDK, most more than once (63 checked calls in all).
    const methods = [
      ...['create', 'list', 'get', 'delete'].map((m) => `pods.${m}`),
      ...['create', 'list', 'get', 'update', 'update ({})', 'delete'].map((m) => `inboxes.${m}`),
      ...['list', 'get', 'delete'].map((m) => `inboxes.threads.${m}`),
      'threads.list',
      ...['list', 'get', 'update', 'update ({})', 'delete', 'send', 'forward'].map(
        (m) => `inboxes.messages.${m}`,
      ),
      ...[
        'no recipients, Reply-To',
        'no recipients, From',
        'no recipients, to itself',
        'to',
        'reply_all',
      ].map((m) => `inboxes.messages.reply (${m})`),
      ...['create', 'get', 'list', 'update', 'update ({})', 'send', 'delete'].map(
        (m) => `inboxes.drafts.${m}`,
      ),
      ...['create', 'list', 'get', 'update', 'update ({})', 'delete'].map((m) => `webhooks.${m}`),
    ];
    assert.deepEqual(
      methods.filter((name) => !passed.has(name)),
      [],
    );
    assert.equal(passed.size, 63);
  });
});
