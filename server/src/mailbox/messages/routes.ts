import { Type } from 'typebox';
import { invalidParam } from '../../core/http/errors.ts';
import { withErrors } from '../../core/http/schemas.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { notFound } from '../auth/principal.ts';
import { loadInbox } from '../inboxes/service.ts';
import { byTimestamp, keyset, listEnvelope } from '../pagination.ts';
import { InboxIdParam } from '../schemas.ts';
import { normalizeMessageId } from '../threading/resolve.ts';
import type { MailboxDeps } from '../wiring.ts';
import { bareAddress, unique } from './addresses.ts';
import { asList, decodeAttachments } from './input.ts';
import { toMessage } from './present.ts';
import { messagesRepository } from './repository.ts';
import { Message, MessageIdParam, MessageListQuery, ReplyBody, SendBody } from './schemas.ts';

const tags = ['Messages'];
/** Labels that record what happened to a message; only the service sets them. */
const SYSTEM_LABELS = new Set(['received', 'sent', 'rejected', 'blocked']);

export function messageRoutes(app: AppInstance, deps: MailboxDeps): void {
  async function loadMessage(request: {
    mailbox: import('../auth/principal.ts').MailboxPrincipal;
    params: { inbox_id: string; message_id: string };
  }) {
    const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
    const messageId = normalizeMessageId(request.params.message_id);
    const row = messageId ? await messagesRepository.byMessageId(deps.db, inbox.id, messageId) : undefined;
    if (!row) throw notFound('message', 'message_id');
    return { inbox, row };
  }

  app.get(
    '/inboxes/:inbox_id/messages',
    {
      schema: {
        tags,
        operationId: 'listMessages',
        summary: 'List messages, newest first',
        params: InboxIdParam,
        querystring: MessageListQuery,
        response: withErrors({ 200: listEnvelope('messages', Message) }),
      },
    },
    async (request) => {
      const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
      const page = deps.pageTokens.parse(request.query, `messages:${inbox.id}`, request.mailbox.subject);
      const rows = await messagesRepository.list(deps.db, inbox.id, keyset(page), request.query.labels);
      const attachments = await messagesRepository.attachmentsFor(
        deps.db,
        rows.map((r) => r.id),
      );
      return deps.pageTokens.envelope('messages', page, rows, byTimestamp, (r) =>
        toMessage(r, attachments.get(r.id)),
      );
    },
  );

  app.get(
    '/inboxes/:inbox_id/messages/:message_id',
    {
      schema: {
        tags,
        operationId: 'getMessage',
        summary: 'Get a message',
        params: MessageIdParam,
        response: withErrors({ 200: Message }),
      },
    },
    async (request) => {
      const { row } = await loadMessage(request);
      const attachments = await messagesRepository.attachmentsFor(deps.db, [row.id]);
      return toMessage(row, attachments.get(row.id));
    },
  );

  app.patch(
    '/inboxes/:inbox_id/messages/:message_id',
    {
      schema: {
        tags,
        operationId: 'updateMessage',
        summary: 'Add or remove labels (e.g. remove `unread`)',
        params: MessageIdParam,
        body: Type.Object(
          {
            add_labels: Type.Optional(
              Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 }),
            ),
            remove_labels: Type.Optional(
              Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 }),
            ),
          },
          { additionalProperties: false, minProperties: 1, examples: [{ remove_labels: ['unread'] }] },
        ),
        response: withErrors({ 200: Message }),
      },
    },
    async (request) => {
      const { row } = await loadMessage(request);
      const add = request.body.add_labels ?? [];
      const remove = request.body.remove_labels ?? [];
      for (const [param, labels] of [
        ['add_labels', add],
        ['remove_labels', remove],
      ] as const) {
        labels.forEach((label, index) => {
          if (SYSTEM_LABELS.has(label))
            throw invalidParam(`${param}[${index}]`, `${label} is set by the service and cannot be changed.`);
        });
      }
      const labels = unique([...row.labels.filter((label) => !remove.includes(label)), ...add]);
      const updated = await messagesRepository.setLabels(deps.db, row, labels, deps.clock.now());
      const attachments = await messagesRepository.attachmentsFor(deps.db, [row.id]);
      return toMessage(updated, attachments.get(row.id));
    },
  );

  app.get(
    '/inboxes/:inbox_id/messages/:message_id/raw',
    {
      schema: {
        tags,
        operationId: 'getRawMessage',
        summary: 'The message as received or sent (message/rfc822)',
        params: MessageIdParam,
        response: withErrors({ 200: Type.String({ contentMediaType: 'message/rfc822' }) }),
      },
    },
    async (request, reply) => {
      const { row } = await loadMessage(request);
      const object = row.raw_key ? await deps.storage.get(row.raw_key) : null;
      if (!object) throw notFound('raw message', 'message_id');
      reply.header('Content-Type', 'message/rfc822');
      reply.header('Content-Length', object.size);
      return reply.send(object.body as never);
    },
  );

  app.get(
    '/inboxes/:inbox_id/messages/:message_id/attachments/:attachment_id',
    {
      schema: {
        tags,
        operationId: 'getAttachment',
        summary: 'Download an attachment',
        params: Type.Object({ ...MessageIdParam.properties, attachment_id: Type.String() }),
        response: withErrors({ 200: Type.String({ contentMediaType: 'application/octet-stream' }) }),
      },
    },
    async (request, reply) => {
      const { row } = await loadMessage(request);
      const attachment = await messagesRepository.attachment(deps.db, row.id, request.params.attachment_id);
      const object = attachment ? await deps.storage.get(attachment.storage_key) : null;
      if (!attachment || !object) throw notFound('attachment', 'attachment_id');
      const filename = (attachment.filename ?? attachment.id).replace(/["\\\r\n]/g, '_');
      reply.header('Content-Type', attachment.content_type);
      reply.header('Content-Length', object.size);
      reply.header(
        'Content-Disposition',
        `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      );
      reply.header('X-Content-Type-Options', 'nosniff');
      return reply.send(object.body as never);
    },
  );

  app.post(
    '/inboxes/:inbox_id/messages/send',
    {
      schema: {
        tags,
        operationId: 'sendMessage',
        summary: 'Send a message',
        description: 'Answers once the relay accepted or refused it; `status` is `sent` or `rejected`.',
        params: InboxIdParam,
        body: SendBody,
        response: withErrors({ 200: Message }),
      },
    },
    async (request) => {
      const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
      const body = request.body;
      return deps.outbound.send(inbox, {
        to: asList(body.to),
        cc: asList(body.cc),
        bcc: asList(body.bcc),
        reply_to: asList(body.reply_to),
        subject: body.subject ?? '',
        text: body.text ?? null,
        html: body.html ?? null,
        attachments: decodeAttachments(body.attachments),
        in_reply_to: null,
        references: [],
        labels: body.labels ?? [],
      });
    },
  );

  app.post(
    '/inboxes/:inbox_id/messages/:message_id/reply',
    {
      schema: {
        tags,
        operationId: 'replyToMessage',
        summary: 'Reply to a message',
        description:
          'Addressed to the Reply-To (else the sender) of the original unless `to` is given; threads with it.',
        params: MessageIdParam,
        body: ReplyBody,
        response: withErrors({ 200: Message }),
      },
    },
    async (request) => {
      const { inbox, row } = await loadMessage(request);
      const body = request.body;
      const original =
        row.direction === 'inbound' ? (row.reply_to.length ? row.reply_to : [row.from]) : row.to;
      let to = body.to !== undefined ? asList(body.to) : original;
      let cc = asList(body.cc);
      if (body.reply_all) {
        const self = inbox.id;
        const others = [...row.to, ...row.cc].filter((a) => bareAddress(a) !== self);
        const seen = new Set(to.map(bareAddress));
        cc = unique([...cc, ...others.filter((a) => !seen.has(bareAddress(a)))]);
      }
      to = to.filter((a) => bareAddress(a) !== inbox.id || row.direction === 'outbound');
      const subject = body.subject ?? (/^re:/i.test(row.subject) ? row.subject : `Re: ${row.subject}`);
      return deps.outbound.send(inbox, {
        to,
        cc,
        bcc: asList(body.bcc),
        reply_to: asList(body.reply_to),
        subject,
        text: body.text ?? null,
        html: body.html ?? null,
        attachments: decodeAttachments(body.attachments),
        in_reply_to: row.message_id,
        references: unique([...row.references, row.message_id]).slice(-50),
        labels: body.labels ?? [],
      });
    },
  );
}
