import { Type } from 'typebox';
import { withErrors } from '../../core/http/schemas.ts';
import type { RouteModule } from '../../core/http/types.ts';
import { ListQuery, listEnvelope } from '../pagination.ts';
import { Nullable, Timestamp } from '../schemas.ts';
import type { DomainService } from './service.ts';

const tags = ['Domains'];

const DnsRecord = Type.Object({
  type: Type.Union([Type.Literal('TXT'), Type.Literal('MX')]),
  name: Type.String(),
  value: Type.String(),
  priority: Nullable(Type.Integer()),
  purpose: Type.Union([
    Type.Literal('verification'),
    Type.Literal('inbound'),
    Type.Literal('spf'),
    Type.Literal('dkim'),
  ]),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('verified'),
    Type.Literal('missing'),
    Type.Literal('invalid'),
  ]),
});

export const Domain = Type.Object(
  {
    domain_id: Type.String({ description: 'The domain name; also its id.' }),
    domain: Type.String(),
    pod_id: Nullable(Type.String()),
    status: Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('failed')]),
    records: Type.Array(DnsRecord, { description: 'Publish these, then call verify.' }),
    last_checked_at: Nullable(Timestamp),
    last_error: Nullable(Type.String()),
    verified_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Domain', title: 'Domain' },
);

const DomainParams = Type.Object({ domain_id: Type.String({ maxLength: 253 }) });

export const domainRoutes: RouteModule<{ domains: DomainService }> = (app, { domains }) => {
  app.post(
    '/domains',
    {
      config: { scope: 'domains.write' },
      schema: {
        tags,
        operationId: 'createDomain',
        summary: 'Add a custom domain; answers the DNS records to publish',
        body: Type.Object(
          { domain: Type.String({ minLength: 4, maxLength: 253 }), pod_id: Type.Optional(Type.String()) },
          { additionalProperties: false, examples: [{ domain: 'agents.example.com' }] },
        ),
        response: withErrors({ 201: Domain }),
      },
    },
    async (request, reply) => {
      const row = await domains.create(request.mailbox, request.body);
      return reply.status(201).send(domains.present(row));
    },
  );

  app.get(
    '/domains',
    {
      config: { scope: 'domains.read' },
      schema: {
        tags,
        operationId: 'listDomains',
        summary: 'List domains',
        querystring: ListQuery,
        response: withErrors({ 200: listEnvelope('domains', Domain) }),
      },
    },
    async (request) => domains.list(request.mailbox, request.query),
  );

  app.get(
    '/domains/:domain_id',
    {
      config: { scope: 'domains.read' },
      schema: {
        tags,
        operationId: 'getDomain',
        summary: 'Get a domain',
        params: DomainParams,
        response: withErrors({ 200: Domain }),
      },
    },
    async (request) => domains.present(await domains.get(request.mailbox, request.params.domain_id)),
  );

  app.post(
    '/domains/:domain_id/verify',
    {
      config: { scope: 'domains.write' },
      schema: {
        tags,
        operationId: 'verifyDomain',
        summary: 'Check the DNS records now (fires domain.verified on success)',
        params: DomainParams,
        response: withErrors({ 200: Domain }),
      },
    },
    async (request) => {
      const { row, records } = await domains.verify(request.mailbox, request.params.domain_id);
      return domains.present(row, records);
    },
  );
};
