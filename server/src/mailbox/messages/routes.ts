import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { listEnvelope } from '../pagination.ts';
import { InboxIdParam } from '../schemas.ts';
import { Message, MessageIdParam, MessageListQuery, ReplyBody, SendBody } from './schemas.ts';
import type { MessageService } from './service.ts';

const tags = ['Messages'];

export const messageRoutes: RouteModule<{ messages: MessageService }> = (app, { messages }) => {
  app.get(
    '/inboxes/:inbox_id/messages',
    {
      config: { scope: 'messages.read' },
      schema: {
        tags,
        operationId: 'listMessages',
        summary: 'List messages, newest first',
        params: InboxIdParam,
        querystring: MessageListQuery,
        response: withErrors({ 200: listEnvelope('messages', Message) }),
      },
    },
    async (request) => messages.list(request.mailbox, request.params.inbox_id, request.query),
  );

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
          { additionalProperties: false, minProperties: 1, examples: [{ remove_labels: ['unread'] }] },
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
      config: { scope: 'messages.send' },
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
    async (request) => messages.send(request.mailbox, request.params.inbox_id, request.body),
  );

  app.post(
    '/inboxes/:inbox_id/messages/:message_id/reply',
    {
      config: { scope: 'messages.send' },
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
};
