import type { Selectable } from 'kysely';
import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { AppInstance } from '../../core/http/types.ts';
import { toBuffer } from '../../core/storage/types.ts';
import { notFound } from '../auth/principal.ts';
import { json } from '../db.ts';
import { scopeOf } from '../events/types.ts';
import { newId } from '../ids.ts';
import { loadInbox } from '../inboxes/service.ts';
import { asList, decodeAttachments } from '../messages/input.ts';
import { composeFields, Message } from '../messages/schemas.ts';
import { afterCreated, ListQuery, listEnvelope } from '../pagination.ts';
import { InboxIdParam, Nullable, Timestamp } from '../schemas.ts';
import type { DraftAttachment, MailboxTables } from '../tables.ts';
import { normalizeMessageId, parseMessageIdList } from '../threading/resolve.ts';
import type { MailboxDeps } from '../wiring.ts';

const tags = ['Drafts'];
type DraftRow = Selectable<MailboxTables['mailbox_drafts']>;

export const Draft = Type.Object(
  {
    inbox_id: Type.String(),
    draft_id: Type.String(),
    client_id: Nullable(Type.String()),
    to: Type.Array(Type.String()),
    cc: Type.Array(Type.String()),
    bcc: Type.Array(Type.String()),
    reply_to: Type.Array(Type.String()),
    subject: Type.String(),
    text: Nullable(Type.String()),
    html: Nullable(Type.String()),
    attachments: Type.Array(
      Type.Object({
        filename: Nullable(Type.String()),
        content_type: Type.String(),
        size: Type.Integer(),
        content_id: Nullable(Type.String()),
        inline: Type.Boolean(),
      }),
    ),
    in_reply_to: Nullable(Type.String()),
    references: Type.Array(Type.String()),
    labels: Type.Array(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Draft' },
);

const toDraft = (row: DraftRow) => ({
  inbox_id: row.inbox_id,
  draft_id: row.id,
  client_id: row.client_id,
  to: row.to,
  cc: row.cc,
  bcc: row.bcc,
  reply_to: row.reply_to,
  subject: row.subject,
  text: row.text,
  html: row.html,
  attachments: row.attachments.map(({ storage_key: _key, ...rest }) => rest),
  in_reply_to: row.in_reply_to,
  references: row.references,
  labels: row.labels,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const DraftParams = Type.Object({ ...InboxIdParam.properties, draft_id: Type.String() });

export function draftRoutes(app: AppInstance, deps: MailboxDeps): void {
  async function loadDraft(request: {
    mailbox: import('../auth/principal.ts').MailboxPrincipal;
    params: { inbox_id: string; draft_id: string };
  }) {
    const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
    const draft = await deps.db
      .selectFrom('mailbox_drafts')
      .selectAll()
      .where('inbox_id', '=', inbox.id)
      .where('id', '=', request.params.draft_id)
      .executeTakeFirst();
    if (!draft) throw notFound('draft', 'draft_id');
    return { inbox, draft };
  }

  app.post(
    '/inboxes/:inbox_id/drafts',
    {
      schema: {
        tags,
        operationId: 'createDraft',
        summary: 'Create a draft (fires draft.created)',
        params: InboxIdParam,
        body: Type.Object(
          {
            ...composeFields,
            in_reply_to: Type.Optional(
              Type.String({ description: 'Message-ID of the message this draft answers.' }),
            ),
            references: Type.Optional(Type.Array(Type.String())),
            client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
          },
          {
            additionalProperties: false,
            examples: [{ to: ['customer@example.com'], subject: 'Draft reply', text: 'Proposed answer…' }],
          },
        ),
        response: withErrors({ 201: Draft }),
      },
    },
    async (request, reply) => {
      const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
      const body = request.body;
      if (body.client_id) {
        const existing = await deps.db
          .selectFrom('mailbox_drafts')
          .selectAll()
          .where('inbox_id', '=', inbox.id)
          .where('client_id', '=', body.client_id)
          .executeTakeFirst();
        if (existing) return reply.status(201).send(toDraft(existing));
      }
      const to = asList(body.to);
      const cc = asList(body.cc);
      const bcc = asList(body.bcc);
      const replyTo = asList(body.reply_to);
      // Addresses are checked now so a draft that could never be sent is refused early.
      if (to.length + cc.length + bcc.length > 0) deps.outbound.validate({ to, cc, bcc, reply_to: replyTo });
      const id = newId('drf');
      const attachments: DraftAttachment[] = [];
      for (const attachment of decodeAttachments(body.attachments)) {
        const key = `mailbox/drafts/${id}/${newId('att')}`;
        await deps.storage.put(key, attachment.content, attachment.content_type);
        attachments.push({
          filename: attachment.filename,
          content_type: attachment.content_type,
          size: attachment.content.length,
          storage_key: key,
          content_id: attachment.content_id,
          inline: attachment.inline,
        });
      }
      const now = deps.clock.now();
      const inReplyTo = normalizeMessageId(body.in_reply_to);
      const row = await deps.recorder.transaction(async (trx, emit) => {
        const inserted = await trx
          .insertInto('mailbox_drafts')
          .values({
            id,
            inbox_id: inbox.id,
            client_id: body.client_id ?? null,
            to: json(to),
            cc: json(cc),
            bcc: json(bcc),
            reply_to: json(replyTo),
            subject: body.subject ?? '',
            text: body.text ?? null,
            html: body.html ?? null,
            attachments: json(attachments),
            in_reply_to: inReplyTo,
            references: json(
              body.references ? parseMessageIdList(body.references) : inReplyTo ? [inReplyTo] : [],
            ),
            labels: json(body.labels ?? []),
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await emit('draft.created', scopeOf(inbox), { draft: toDraft(inserted) });
        return inserted;
      });
      return reply.status(201).send(toDraft(row));
    },
  );

  app.get(
    '/inboxes/:inbox_id/drafts',
    {
      schema: {
        tags,
        operationId: 'listDrafts',
        summary: 'List drafts, newest first',
        params: InboxIdParam,
        querystring: ListQuery,
        response: withErrors({ 200: listEnvelope('drafts', Draft) }),
      },
    },
    async (request) => {
      const inbox = await loadInbox(deps.db, request.mailbox, request.params.inbox_id);
      const list = `drafts:${inbox.id}`;
      const page = deps.pageTokens.parse(request.query, list, request.mailbox.subject);
      let query = deps.db.selectFrom('mailbox_drafts').selectAll().where('inbox_id', '=', inbox.id);
      const after = afterCreated(page.after);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', after.created_at),
            eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)]),
          ]),
        );
      }
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit + 1)
        .execute();
      const { items, ...rest } = deps.pageTokens.page(
        rows,
        page.limit,
        list,
        request.mailbox.subject,
        (r) => ({ t: r.created_at.toISOString(), i: r.id }),
        toDraft,
      );
      return { ...rest, drafts: items };
    },
  );

  app.get(
    '/inboxes/:inbox_id/drafts/:draft_id',
    {
      schema: {
        tags,
        operationId: 'getDraft',
        summary: 'Get a draft',
        params: DraftParams,
        response: withErrors({ 200: Draft }),
      },
    },
    async (request) => toDraft((await loadDraft(request)).draft),
  );

  app.delete(
    '/inboxes/:inbox_id/drafts/:draft_id',
    {
      schema: {
        tags,
        operationId: 'deleteDraft',
        summary: 'Delete a draft',
        params: DraftParams,
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      const { draft } = await loadDraft(request);
      await deps.db.deleteFrom('mailbox_drafts').where('id', '=', draft.id).execute();
      await Promise.allSettled(draft.attachments.map((a) => deps.storage.delete(a.storage_key)));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/inboxes/:inbox_id/drafts/:draft_id/send',
    {
      schema: {
        tags,
        operationId: 'sendDraft',
        summary: 'Send a draft; the draft is removed and the sent message returned',
        params: DraftParams,
        response: withErrors({ 200: Message }),
      },
    },
    async (request) => {
      const { inbox, draft } = await loadDraft(request);
      const attachments = [];
      for (const attachment of draft.attachments) {
        const object = await deps.storage.get(attachment.storage_key);
        if (!object) continue;
        attachments.push({ ...attachment, content: await toBuffer(object.body) });
      }
      const message = await deps.outbound.send(inbox, {
        to: draft.to,
        cc: draft.cc,
        bcc: draft.bcc,
        reply_to: draft.reply_to,
        subject: draft.subject,
        text: draft.text,
        html: draft.html,
        attachments,
        in_reply_to: draft.in_reply_to,
        references: draft.references,
        labels: draft.labels,
      });
      await deps.db.deleteFrom('mailbox_drafts').where('id', '=', draft.id).execute();
      await Promise.allSettled(draft.attachments.map((a) => deps.storage.delete(a.storage_key)));
      return message;
    },
  );
}
