// The team (docs/teams.md): members and their roles, invitations by link or e-mail, and the audit
// log. Everyone sees the members; admins and owners change roles, invite and read the log.
import { api, itemsOf } from '../../api.js';
import {
  Async,
  Badge,
  Button,
  Card,
  ConfirmButton,
  ErrorNotice,
  PageHeader,
  SecretOnce,
  Select,
  Table,
  TextInput,
} from '../../components/ui.js';
import { formatDateTime } from '../../format.js';
import { fieldError, useAction, useApi } from '../../hooks.js';
import { html, useState } from '../../lib.js';
import { navigate } from '../../router.js';
import { isAdmin, ROLE_LABELS, ROLES, rolesGivableBy, useSession } from '../../session.js';

function InviteForm({ myRole, onInvited }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('author');
  const [invite, { busy, error }] = useAction(async (event) => {
    event.preventDefault();
    const body = await api.post('invitations', { email: email.trim(), role });
    setEmail('');
    onInvited(body.data);
  });
  return html`<${Card} title="Invite someone">
    <form class="form" onSubmit=${invite} noValidate>
      <div class="form-grid">
        <${TextInput} label="E-mail" type="email" required value=${email} onInput=${setEmail}
          placeholder="sam@example.com" error=${fieldError(error, 'email')} />
        <${Select} label="Role" value=${role} onChange=${setRole} error=${fieldError(error, 'role')}
          options=${rolesGivableBy(myRole).map((value) => ({ value, label: ROLE_LABELS[value].name }))} />
      </div>
      <p class="muted small">${ROLE_LABELS[role].text}</p>
      <${ErrorNotice} error=${error && !['email', 'role'].includes(error.param) ? error : null} title="Not invited" />
      <div class="form-actions"><${Button} type="submit" variant="primary" busy=${busy} disabled=${!email.trim()}>Invite<//></div>
    </form>
  <//>`;
}

function Invited({ invitation }) {
  const note = invitation.emailed
    ? `E-mailed to ${invitation.email}. You can also send this link yourself; it works once, for 7 days.`
    : `No mail relay is configured (SMTP_URL): send this link to ${invitation.email} yourself. It works once, for 7 days.`;
  return html`<${SecretOnce} label="Invitation link" value=${invitation.url} note=${note} />`;
}

function Members({ session, onChanged }) {
  const members = useApi(() => api.get('members').then(itemsOf));
  const myRole = session.role;
  const admin = isAdmin(myRole);
  const [changeRole, { error: roleError }] = useAction(async (member, role) => {
    const body = await api.patch(`members/${member.id}`, { role });
    members.setData((items) => items.map((item) => (item.id === member.id ? body.data : item)));
    onChanged();
  });
  const remove = async (member) => {
    if (member.is_you) {
      await api.del('members/me');
      navigate('/');
      location.reload();
      return;
    }
    await api.del(`members/${member.id}`);
    members.setData((items) => items.filter((item) => item.id !== member.id));
    onChanged();
  };
  const mayChange = (member) => admin && !member.is_you && (myRole === 'owner' || member.role !== 'owner');
  return html`<${Card} title="Members">
    <${ErrorNotice} error=${roleError} title="The role was not changed" />
    <${Async} state=${members} rows=${3}>
      ${(items) =>
        html`<${Table} caption="Members" rows=${items} columns=${[
          {
            label: 'Name',
            render: (member) => html`${member.name}${member.is_you && html` <${Badge} tone="info">you<//>`}`,
          },
          { label: 'E-mail', render: (member) => html`<span class="break">${member.email}</span>` },
          {
            label: 'Role',
            render: (member) =>
              mayChange(member)
                ? html`<select class="input" aria-label=${`Role of ${member.name}`} value=${member.role}
                  onChange=${(event) => changeRole(member, event.currentTarget.value)}>
                  ${rolesGivableBy(myRole).map((role) => html`<option value=${role}>${ROLE_LABELS[role].name}</option>`)}
                </select>`
                : html`<span class="library-nowrap">${ROLE_LABELS[member.role]?.name ?? member.role}</span>`,
          },
          { label: 'Joined', render: (member) => formatDateTime(member.joined_at) },
          {
            label: 'Actions',
            render: (member) =>
              member.is_you
                ? html`<${ConfirmButton} label="Leave" buttonVariant="ghost" title="Leave this workspace?"
                  message="You lose access at once, and the API keys you made here stop working. An admin can invite you again."
                  onConfirm=${() => remove(member)} />`
                : mayChange(member) &&
                  html`<${ConfirmButton} label="Remove" buttonVariant="ghost" title=${`Remove ${member.name}?`}
                  message=${`${member.name} loses access at once: their sessions end and the API keys they made stop working. What they authored stays.`}
                  onConfirm=${() => remove(member)} />`,
          },
        ]} />`}
    <//>
  <//>`;
}

function Invitations({ refreshKey }) {
  const invitations = useApi(() => api.get('invitations').then(itemsOf), [refreshKey]);
  const revoke = async (invitation) => {
    const body = await api.del(`invitations/${invitation.id}`);
    invitations.setData((items) => items.map((item) => (item.id === invitation.id ? body.data : item)));
  };
  return html`<${Card} title="Invitations">
    <${Async} state=${invitations} rows=${2}
      empty=${{ when: (items) => items.length === 0, title: 'No invitations yet', text: 'Invite a colleague above.' }}>
      ${(items) =>
        html`<${Table} caption="Invitations" rows=${items} columns=${[
          { label: 'E-mail', render: (row) => html`<span class="break">${row.email}</span>` },
          { label: 'Role', render: (row) => ROLE_LABELS[row.role]?.name ?? row.role },
          {
            label: 'Status',
            render: (row) =>
              html`<${Badge} tone=${row.status === 'pending' ? 'info' : row.status === 'accepted' ? 'success' : 'neutral'}>${row.status}<//>`,
          },
          { label: 'Invited by', render: (row) => row.invited_by ?? '—' },
          {
            label: 'Expires',
            render: (row) => (row.status === 'pending' ? formatDateTime(row.expires_at) : '—'),
          },
          {
            label: 'Actions',
            render: (row) =>
              row.status === 'pending' &&
              html`<${ConfirmButton} label="Revoke" buttonVariant="ghost" title=${`Revoke the invitation to ${row.email}?`}
              message="The link stops working. You can invite the address again later." onConfirm=${() => revoke(row)} />`,
          },
        ]} />`}
    <//>
  <//>`;
}

const ACTIONS = {
  'member.invited': 'invited',
  'member.joined': 'joined',
  'member.role_changed': 'changed the role of',
  'member.removed': 'removed',
  'member.left': 'left',
  'invitation.revoked': 'revoked the invitation of',
  'api_key.created': 'created the API key',
  'api_key.revoked': 'revoked the API key',
  'api_key.reactivated': 'reactivated the API key',
  'api_key.deleted': 'deleted the API key',
};

function describeDetails(event) {
  const { details } = event;
  if (event.action === 'member.role_changed') return `${details.from} → ${details.to}`;
  if (details.role) return `as ${details.role}`;
  return '';
}

function AuditLog({ refreshKey }) {
  const events = useApi(() => api.get('audit-events', { limit: 50 }).then(itemsOf), [refreshKey]);
  return html`<${Card} title="Audit log">
    <${Async} state=${events} rows=${3}
      empty=${{ when: (items) => items.length === 0, title: 'Nothing yet', text: 'Changes to members and API keys appear here.' }}>
      ${(items) =>
        html`<${Table} caption="Audit log" rows=${items} columns=${[
          { label: 'When', render: (event) => formatDateTime(event.created_at) },
          { label: 'Who', render: (event) => html`<span class="break">${event.actor.name}</span>` },
          {
            label: 'What',
            render: (event) =>
              html`${ACTIONS[event.action] ?? event.action} <strong class="break">${event.target}</strong> <span class="muted">${describeDetails(event)}</span>`,
          },
        ]} />`}
    <//>
  <//>`;
}

export default function Team() {
  const { session } = useSession();
  const [invited, setInvited] = useState(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const admin = isAdmin(session.role);
  return html`<div class="page">
    <${PageHeader} title="Team"
      description=${`You are ${ROLE_LABELS[session.role]?.article ?? ''} ${ROLE_LABELS[session.role]?.name.toLowerCase() ?? session.role} in ${session.account.name}. ${ROLE_LABELS[session.role]?.text ?? ''}`} />
    ${admin && invited && html`<${Invited} invitation=${invited} />`}
    ${
      admin &&
      html`<${InviteForm} myRole=${session.role} onInvited=${(invitation) => {
        setInvited(invitation);
        setRefreshKey((key) => key + 1);
      }} />`
    }
    <${Members} session=${session} onChanged=${() => setRefreshKey((key) => key + 1)} />
    ${admin && html`<${Invitations} refreshKey=${refreshKey} />`}
    <${Card} title="What each role may do">
      <dl class="details">
        ${ROLES.map((role) => html`<div key=${role}><dt>${ROLE_LABELS[role].name}</dt><dd>${ROLE_LABELS[role].text}</dd></div>`)}
      </dl>
    <//>
    ${admin && html`<${AuditLog} refreshKey=${refreshKey} />`}
  </div>`;
}
