import { Type } from 'typebox';
import { ListQuery } from '../pagination.ts';

/** `local@domain`, or a domain alone (which also covers its subdomains). */
const ADDRESS_OR_DOMAIN =
  '^([^\\s@<>()",;:]+@)?[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$';

/** A date (`2026-11-01`, midnight UTC) or an RFC 3339 date-time with its zone. */
const DATE_OR_TIME =
  '^\\d{4}-\\d{2}-\\d{2}([Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2}))?$';

const participant = (description: string) =>
  Type.Optional(Type.String({ minLength: 3, maxLength: 320, pattern: ADDRESS_OR_DOMAIN, description }));

const moment = (description: string) =>
  Type.Optional(Type.String({ maxLength: 40, pattern: DATE_OR_TIME, description }));

/** The filters every message and thread list takes, per inbox and across the workspace. */
export const searchFields = {
  ...ListQuery.properties,
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'Full-text search over subject, body (text, and HTML as text) and participants (From, To, Cc: names and addresses). Web-search syntax: words must all match (any order, case-insensitive, whole words), `"a phrase"`, `or`, `-word` excludes.',
      examples: ['invoice "order 1234" -draft'],
    }),
  ),
  from: participant(
    'Sender: an address (`alice@example.com`) or a domain (`example.com`, also its subdomains).',
  ),
  to: participant('Any recipient (To, Cc, Bcc): an address or a domain, as for `from`.'),
  labels: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 20,
      description:
        'Only items carrying every one of these labels. Blocked mail is listed only with `blocked`, mail in the trash only with `trash`.',
    }),
  ),
  after: moment(
    'Only mail at or after this time (`timestamp >= after`): a date-time with its zone, or a date (midnight UTC).',
  ),
  before: moment('Only mail before this time (`timestamp < before`).'),
  has_attachments: Type.Optional(
    Type.Boolean({
      description:
        'true: only mail with an attachment (not counting inline images); false: only mail without.',
    }),
  ),
};

export const SearchQuery = Type.Object(searchFields, { additionalProperties: false });
