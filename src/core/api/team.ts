/**
 * The team: the members and their roles, adding one, changing a role, invitations by email, and accepting
 * one (the invitee's own password), as /config/team and the invitation page send them.
 */
import { z } from 'zod';
import { Role, isEnumValue } from '../enums.js';
import { isEmailAddress } from '../email.js';
import { platform as platformMessages } from '../messages.js';

export const PASSWORD_SHORT = 'Use at least 8 characters for the password.';

/** A role an owner can give: any Role but NONE. */
export const roleCode = z.number().refine((n) => isEnumValue(Role, n) && n !== Role.NONE, { message: 'Choose a role.' });
const email = z
  .string()
  .trim()
  .max(320)
  .refine((s) => isEmailAddress(s), platformMessages.ENTER_VALID_EMAIL);

/** POST /api/admin/team/invites: who joins the team, their name and role. */
export const inviteBody = z.object({
  email,
  displayName: z.string().trim().max(100).optional().default(''),
  role: roleCode,
});
/** POST /api/config/team: a member added at once, with a password. */
export const memberIn = inviteBody.extend({ password: z.string().min(8, PASSWORD_SHORT).max(1024) });
/** PUT /api/config/team/:id. */
export const roleBody = z.object({ role: roleCode });
/** POST /api/auth/invite (the invitation page's form, or JSON): the link's token and the chosen password. */
export const acceptBody = z.object({
  token: z.string().min(10).max(100),
  displayName: z.string().trim().max(100).optional().default(''),
  password: z.string().min(8, PASSWORD_SHORT).max(1024),
  confirm: z.string().max(1024).optional(),
  crumb: z.string().optional(),
});

/** /config/team's invitation form: the same address check, the role as the select's value. */
export const inviteForm = z.object({ email, displayName: z.string().trim().max(100), role: z.string() });
export type InviteForm = z.infer<typeof inviteForm>;
export type InviteInput = z.input<typeof inviteBody>;

/** A role with what it may do. */
export interface RoleInfo {
  role: number;
  name: string;
  description: string;
}
/** A member as the team calls write them (adding one, changing a role). */
export interface TeamMemberRow {
  id: string;
  email: string;
  displayName: string;
  role: number;
}
/** A member as /config/team lists them: signed up, or invited and whether the link still works. */
export interface TeamMember extends TeamMemberRow {
  state: 'active' | 'invited' | 'expired';
  inviteExpires: string | null;
}
/** GET /api/admin/team: the members, the roles, and who is asking. */
export interface TeamAnswer {
  me: string;
  roles: RoleInfo[];
  members: TeamMember[];
}
/** POST /api/admin/team/invites (201). */
export interface InviteAnswer {
  member: TeamMember;
}
/** POST /api/auth/invite as JSON: the new member is signed in. */
export interface AcceptAnswer {
  ok: true;
  owner: { email: string; role: number };
}
