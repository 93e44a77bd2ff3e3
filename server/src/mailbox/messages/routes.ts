import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { InboxIdParam } from '../schemas.ts';
import {
  DeletedMessage,
  DeleteQuery,
  ForwardBody,
  Message,
  MessageIdParam,
  ReplyBody,
  SendBody,
} from './schemas.ts';
import type { MessageService } from './service.ts';

const tags = ['Messages'];

export const messageRoutes: RouteModule<{ messages: MessageService }> = (app, { messages }) => {
  app.get(
    '/inboxes/:inbox_id/messages/:message_id',
    {
      config: { scope: 'messages.read' },
      schema: {
        tags,
        operationId: 'getMessage',
        summary: 'Get a message',
        params: MessageIdParam,
        response: withErrors({ 200: Message }),
      },
    },
    async (request) => messages.get(request.mailbox, request.params.inbox_id, request.params.message_id),
  );

  app.patch(
    '/inboxes/:inbox_id/messages/:message_id',
    {
      config: { scope: 'messages.write' },
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
          {
            additionalProperties: false,
            description: 'Without either list (`{}`) nothing changes and the message is answered.',
            examples: [{ remove_labels: ['unread'] }],
          },
        ),
        response: withErrors({ 200: Message }),
      },
    },
    async (request) =>
      messages.updateLabels(
        request.mailbox,
        request.params.inbox_id,
        request.params.message_id,
        request.body,
      ),
  );

  app.delete(
    '/inboxes/:inbox_id/messages/:message_id',
    {
      config: { scope: 'messages.write' },
      schema: {
        tags,
        operationId: 'deleteMessage',
        summary: 'Move a message to the trash, or delete it for good with `permanent=true`',
        description:
          'Without `permanent` the message gets the label `trash` (hidden from lists and searches unless `labels=trash`; POST …/restore brings it back); deleting it again changes nothing. With `permanent=true` it is deleted with its raw bytes and attachments, its thread recomputed (or removed when empty), and `message.deleted` fires.',
        params: MessageIdParam,
        querystring: DeleteQuery,
        response: withErrors({ 200: DeletedMessage }),
      },
    },
    async (request) =>
      messages.delete(
        request.mailbox,
        request.params.inbox_id,
        request.params.message_id,
        request.query.permanent ?? false,
      ),
  );

  app.post(
    '/inboxes/:inbox_id/messages/:message_id/restore',
    {
      config: { scope: 'messages.write' },
      schema: {
        tags,
        operationId: 'restoreMessage',
        summary: 'Take a message out of the trash',
        params: MessageIdParam,
        response: withErrors({ 200: Message }),
      },
    },
    async (request) => messages.restore(request.mailbox, request.params.inbox_id, request.params.message_id),
  );

  app.get(
    '/inboxes/:inbox_id/messages/:message_id/raw',
    {
      config: { scope: 'messages.read' },
      schema: {
        tags,
        operationId: 'getRawMessage',
        summary: 'The message as received or sent (message/rfc822)',
        params: MessageIdParam,
        response: withErrors({ 200: Type.String({ contentMediaType: 'message/rfc822' }) }),
      },
    },
    async (request, reply) => {
      const object = await messages.raw(request.mailbox, request.params.inbox_id, request.params.message_id);
      reply.header('Content-Type', 'message/rfc822');
      reply.header('Content-Length', object.size);
      return reply.send(object.body as never);
    },
  );

  app.get(
    '/inboxes/:inbox_id/messages/:message_id/attachments/:attachment_id',
    {
      config: { scope: 'messages.read' },
      schema: {
        tags,
        operationId: 'getAttachment',
        summary: 'Download an attachment',
        params: Type.Object({ ...MessageIdParam.properties, attachment_id: Type.String() }),
        response: withErrors({ 200: Type.String({ contentMediaType: 'application/octet-stream' }) }),
      },
    },
    async (request, reply) => {
      const { params } = request;
      const { attachment, object } = await messages.attachment(
        request.mailbox,
        params.inbox_id,
        params.message_id,
        params.attachment_id,
      );
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
      config: { scope: 'messages.send', messageBody: true },
      schema: {
        tags,
        operationId: 'sendMessage',
        summary: 'Send a message',
        description:
          'Stores the message and queues it; waits (up to MAIL_SEND_WAIT_MS, default 10 s) for the first attempt, so a healthy relay answers `sent` or `rejected`; a slow or unreachable relay answers `sending` (retried with backoff; `message.sent` / `message.rejected` follow). With `send_at` the answer is `scheduled`.',
        params: InboxIdParam,
        body: SendBody,
        response: withErrors({ 200: Message }),
      },
    },
    async (request) => messages.send(request.mailbox, request.params.inbox_id, request.body),
  );

  app.post(
    '/inboxes/:inbox_id/messages/:message_id/reply',
    {
      config: { scope: 'messages.send', messageBody: true },
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
    async (request) =>
      messages.reply(request.mailbox, request.params.inbox_id, request.params.message_id, request.body),
  );

  app.post(
    '/inboxes/:inbox_id/messages/:message_id/forward',
    {
      config: { scope: 'messages.send', messageBody: true },
      schema: {
        tags,
        operationId: 'forwardMessage',
        summary: 'Forward a message, with its attachments',
        description:
          'Sends the original below your note ("Forwarded message" with its From, Date, Subject and To), under `Fwd:`, with its attachments; References keep it in the original\'s thread.',
        params: MessageIdParam,
        body: ForwardBody,
        response: withErrors({ 200: Message }),
      },
    },
    async (request) =>
      messages.forward(request.mailbox, request.params.inbox_id, request.params.message_id, request.body),
  );

  app.post(
    '/inboxes/:inbox_id/messages/:message_id/cancel',
    {
      config: { scope: 'messages.send' },
      schema: {
        tags,
        operationId: 'cancelScheduledMessage',
        summary: 'Cancel a scheduled message',
        description:
          'Only while it is `scheduled` (before its `send_at`): answers the message with status `cancelled`; 409 `resource_conflict` once it went.',
        params: MessageIdParam,
        response: withErrors({ 200: Message }),
      },
    },
    async (request) => messages.cancel(request.mailbox, request.params.inbox_id, request.params.message_id),
  );
};
