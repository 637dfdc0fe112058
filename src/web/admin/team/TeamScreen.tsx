/**
 * Team (/config/team): who helps run the site, in which role (the Role enumeration, each with what it may do),
 * invitations by email (the invitee chooses their own password through a one-time link), role changes and
 * removal behind a confirm dialog. The server keeps the last admin (/api/config/team/:id).
 */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../client/api.js';
import { isEmailAddress } from '../../../core/email.js';
import { ConfirmDialog, DataTable, PageHeader, Skeleton, useToast } from '../ui/design.js';
import { Field, SelectField, serverErrorsOnFields } from '../ui/fields.js';

interface RoleInfo {
  role: number;
  name: string;
  description: string;
}
interface Member {
  id: string;
  email: string;
  displayName: string;
  role: number;
  state: 'active' | 'invited' | 'expired';
  inviteExpires: string | null;
}
interface Team {
  me: string;
  roles: RoleInfo[];
  members: Member[];
}

const KEY = ['team'];
const inviteSchema = z.object({
  email: z
    .string()
    .trim()
    .max(320)
    .refine((s) => isEmailAddress(s), 'Please enter a valid email'),
  displayName: z.string().trim().max(100),
  role: z.string(),
});
type InviteValues = z.infer<typeof inviteSchema>;

const STATE_TEXT = { active: 'Active', invited: 'Invited, not joined yet', expired: 'Invitation expired' } as const;

function InviteForm({ roles }: { roles: RoleInfo[] }) {
  const toast = useToast();
  const client = useQueryClient();
  const id = useId();
  const form = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '', displayName: '', role: String(roles.find((r) => r.name === 'Editor')?.role ?? roles[0]!.role) },
    mode: 'onTouched',
  });
  const invite = useMutation({
    mutationFn: (v: InviteValues) =>
      api<{ member: Member }>('POST', '/api/admin/team/invites', { email: v.email, displayName: v.displayName, role: Number(v.role) }),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: KEY });
      form.reset({ ...form.getValues(), email: '', displayName: '' });
      toast(`Invitation sent to ${r.member.email}.`);
    },
    onError: (e) => {
      if (!serverErrorsOnFields(form, e)) toast(e.message, { tone: 'error' });
    },
  });
  const role = roles.find((r) => String(r.role) === form.watch('role'));
  return (
    <section className="a-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Invite someone</h2>
      <p className="a-muted">They get an email with a link to choose their own password. The link works once, for 7 days.</p>
      <form className="a-form" aria-label="Invite someone" noValidate onSubmit={form.handleSubmit((v) => invite.mutate(v))}>
        <div className="a-fields">
          <Field form={form} name="email" label="Email" type="email" autoComplete="off" />
          <Field form={form} name="displayName" label="Name (optional)" autoComplete="off" />
          <SelectField
            form={form}
            name="role"
            label="Role"
            options={roles.map((r) => ({ value: String(r.role), label: r.name }))}
            hint={role?.description}
          />
        </div>
        <div className="a-form-actions">
          <button type="submit" className="a-button--primary" disabled={invite.isPending}>
            {invite.isPending ? 'Sending…' : 'Send invitation'}
          </button>
        </div>
      </form>
    </section>
  );
}

function MemberRow({ m, roles, me }: { m: Member; roles: RoleInfo[]; me: string }) {
  const toast = useToast();
  const client = useQueryClient();
  const name = m.displayName ? `${m.displayName} (${m.email})` : m.email;
  const change = useMutation({
    mutationFn: (role: number) => api('PUT', `/api/config/team/${m.id}`, { role }),
    onSuccess: () => toast(`Role of ${m.email} changed.`),
    onError: (e) => toast(e.message, { tone: 'error' }),
    onSettled: () => void client.invalidateQueries({ queryKey: KEY }),
  });
  const remove = useMutation({
    mutationFn: () => api('DELETE', `/api/config/team/${m.id}`),
    onSuccess: () => toast(`${m.email} removed from the team.`),
    onError: (e) => toast(e.message, { tone: 'error' }),
    onSettled: () => void client.invalidateQueries({ queryKey: KEY }),
  });
  return (
    <tr>
      <td>
        <strong>{name}</strong>
        {m.id === me ? <span className="a-muted"> (you)</span> : null}
      </td>
      <td>
        <select
          aria-label={`Role of ${m.email}`}
          value={m.role}
          disabled={change.isPending}
          onChange={(e) => change.mutate(Number(e.target.value))}
        >
          {roles.map((r) => (
            <option key={r.role} value={r.role}>
              {r.name}
            </option>
          ))}
        </select>
      </td>
      <td>{STATE_TEXT[m.state]}</td>
      <td>
        {m.id === me ? null : (
          <ConfirmDialog
            trigger={
              <button type="button" className="a-button--danger" aria-label={`Remove ${m.email}`}>
                Remove
              </button>
            }
            title={`Remove ${m.email}?`}
            description="They are signed out and can no longer open /config. You can invite them again later."
            confirm="Remove"
            onConfirm={() => remove.mutate()}
          />
        )}
      </td>
    </tr>
  );
}

export function TeamScreen() {
  const q = useQuery({ queryKey: KEY, queryFn: () => api<Team>('GET', '/api/admin/team') });
  const rolesId = useId();
  return (
    <>
      <PageHeader title="Team" description="The people who help run the site, and what each may do." />
      {q.isPending ? (
        <Skeleton lines={5} label="Loading the team" />
      ) : q.isError ? (
        <p role="alert">{q.error.message}</p>
      ) : (
        <>
          <section className="a-card a-table-card" aria-label="Team members">
            <DataTable caption="Team members" columns={['Member', 'Role', 'State']} actions>
              {q.data.members.map((m) => (
                <MemberRow key={m.id} m={m} roles={q.data.roles} me={q.data.me} />
              ))}
            </DataTable>
          </section>
          <InviteForm roles={q.data.roles} />
          <section className="a-card" aria-labelledby={rolesId}>
            <h2 id={rolesId}>What each role may do</h2>
            <dl className="a-roles">
              {q.data.roles.map((r) => (
                <div key={r.role}>
                  <dt>{r.name}</dt>
                  <dd>{r.description}</dd>
                </div>
              ))}
            </dl>
            <p className="a-muted">A site always keeps at least one admin.</p>
          </section>
        </>
      )}
    </>
  );
}
