import { Type } from 'typebox';
import { RoleSchema } from '../../core/http/roles.ts';
import { Nullable, Timestamp } from '../../core/http/schemas.ts';

export const Member = Type.Object(
  {
    id: Type.String({ description: 'The membership id (`member_id` in paths).' }),
    name: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    joined_at: Timestamp,
    is_you: Type.Boolean({ description: 'This member is the caller (or the creator of the calling key).' }),
  },
  { $id: 'Member', title: 'Member' },
);

export const MemberParams = Type.Object({ member_id: Type.String() });

export const MemberUpdate = Type.Object(
  { role: RoleSchema },
  { additionalProperties: false, $id: 'MemberUpdate', title: 'MemberUpdate', examples: [{ role: 'coach' }] },
);

const InvitationStatus = Type.Union(
  [Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('revoked'), Type.Literal('expired')],
  { description: 'pending until accepted, revoked, or 7 days old (expired).' },
);

export const Invitation = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    status: InvitationStatus,
    invited_by: Nullable(
      Type.String({ description: "The inviter's name (null for an API key, or once they left)." }),
    ),
    emailed: Type.Boolean({
      description: 'Sent by e-mail through SMTP_URL as well (false: share the link yourself).',
    }),
    created_at: Timestamp,
    expires_at: Timestamp,
    accepted_at: Nullable(Timestamp),
    url: Type.Optional(
      Type.String({
        description:
          'The invitation link: returned once, when the invitation is created (only a hash of its token is stored).',
      }),
    ),
  },
  { $id: 'Invitation', title: 'Invitation' },
);

export const InvitationCreate = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    role: RoleSchema,
  },
  {
    additionalProperties: false,
    $id: 'InvitationCreate',
    title: 'InvitationCreate',
    examples: [{ email: 'sam@example.com', role: 'coach' }],
  },
);

export const InvitationParams = Type.Object({ invitation_id: Type.String() });

export const InvitationPreview = Type.Object(
  {
    workspace: Type.Object({ id: Type.String(), name: Type.String() }),
    email: Type.String({ description: 'The address the invitation was sent to.' }),
    role: RoleSchema,
    status: InvitationStatus,
    invited_by: Nullable(Type.String()),
    expires_at: Timestamp,
    has_account: Type.Boolean({
      description:
        'The invited address already has a password account: signed out, its password accepts (no `name`).',
    }),
  },
  { $id: 'InvitationPreview', title: 'InvitationPreview' },
);

export const InvitationTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const InvitationAcceptance = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    password: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
  },
  {
    additionalProperties: false,
    $id: 'InvitationAcceptance',
    title: 'InvitationAcceptance',
    description:
      'Signed in (session cookie): send nothing. Not signed in: the `password` of the invited address’s account when it has one (`has_account`), else `name` and `password` create it.',
  },
);

export const AuditEvent = Type.Object(
  {
    id: Type.String(),
    action: Type.String({
      examples: ['member.invited'],
      description:
        'member.invited, member.joined, member.role_changed, member.removed, member.left, invitation.revoked, api_key.created, api_key.revoked, api_key.reactivated, api_key.deleted',
    }),
    actor: Type.Object({
      kind: Type.Union([Type.Literal('user'), Type.Literal('api_key'), Type.Literal('invitation')]),
      member_id: Nullable(Type.String()),
      name: Type.String({ description: 'As it was at the time.' }),
    }),
    target: Type.String({ description: 'What it was done to: an address, a member, a key.' }),
    details: Type.Record(Type.String(), Type.Unknown()),
    created_at: Timestamp,
  },
  { $id: 'AuditEvent', title: 'AuditEvent' },
);
