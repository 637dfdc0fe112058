/**
 * The engagement area: promo popup, newsletter mailing lists (sign-ups from newsletter forms, each to
 * the list its owner chose, the popup and the restock opt-in; double opt-in; unsubscribe page 300 and
 * the confirm page in the site's layout), cookie banner and consent, and the email preview (301). Other
 * areas reach it through hooks they own (forms' formSubmittedHooks and formSaveChecks, restock's
 * restockJoinHooks) and through `registerEmailPreview` (the mail area's email-previews.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Database, Tx } from '../../db/index.js';
import { formSaveChecks, formSubmittedHooks, type FormSaveCheck, type FormSubmittedHook } from '../forms/index.js';
import { restockJoinHooks, type RestockJoinHook } from '../restock/index.js';
import { formListId, type FormField } from '../../core/forms.js';
import { engagement as m } from '../../core/messages.js';
import { badRequest } from '../errors.js';
import { EngagementSettingsService } from './settings.js';
import { MailingLists, emailProblem } from './lists.js';
import { engagementRoutes } from './routes.js';
import { setMarkupSettings } from './markup.js';
import { registerBuiltinPreviews } from './builtin-previews.js';

export { engagementParts } from './markup.js';

const listsByDatabase = new WeakMap<Database, MailingLists>();

/** The mailing lists of an app (tests and other areas reach them through its database). */
export function mailingListsOf(app: FastifyInstance): MailingLists {
  const l = listsByDatabase.get(app.database);
  if (!l) throw new Error('The engagement area is not registered on this app');
  return l;
}

async function join(
  tx: Tx,
  database: Database,
  input: { websiteId: string; email: string; source: 'form' | 'restock'; sourceRef?: string; listId?: string | null },
) {
  const lists = listsByDatabase.get(database);
  if (!lists || emailProblem(input.email)) return;
  // A list deleted after the owner chose it: the sign-up still lands, on the default list.
  await lists.subscribe(tx, {
    websiteId: input.websiteId,
    email: input.email,
    source: input.source,
    sourceRef: input.sourceRef,
    listId: input.listId,
    fallbackToDefault: true,
  });
}

/**
 * A newsletter form's kept submission: its first answered email field joins the list the owner chose
 * (the form's `storage.listId`), or the default list when none was chosen or it has been deleted.
 */
const formHook: FormSubmittedHook = async (tx, s) => {
  if (s.form.kind !== 'newsletter') return;
  const field = (s.form.fields as FormField[]).find(
    (f) => f.type === 'email' && typeof s.data[f.id] === 'string' && String(s.data[f.id]).trim() !== '',
  );
  if (!field) return;
  await join(tx, s.database, {
    websiteId: s.form.websiteId,
    email: String(s.data[field.id]),
    source: 'form',
    sourceRef: `form:${s.form.id}`,
    listId: formListId(s.form.storage),
  });
};

/** Saving a form: a chosen mailing list must be one of this website's lists (400 otherwise). */
const formCheck: FormSaveCheck = async (s) => {
  const listId = formListId(s.form.storage);
  const lists = listsByDatabase.get(s.database);
  if (!listId || !lists) return;
  if (!(await lists.hasList(s.websiteId, listId))) throw badRequest(m.LIST_NOT_FOUND, { 'storage.listId': m.LIST_NOT_FOUND });
};

/** The restock form's "join the mailing list" box joins the same default list. */
const restockHook: RestockJoinHook = async (tx, s) => {
  await join(tx, s.database, { websiteId: s.websiteId, email: s.email, source: 'restock' });
};

export async function engagementArea(app: FastifyInstance): Promise<void> {
  const settings = new EngagementSettingsService(app.database, app.siteCache);
  const lists = new MailingLists(app.database, app.services.mailer, app.emailOrigin);
  listsByDatabase.set(app.database, lists);
  setMarkupSettings(app.database, settings);
  if (!formSubmittedHooks.includes(formHook)) formSubmittedHooks.push(formHook);
  if (!formSaveChecks.includes(formCheck)) formSaveChecks.push(formCheck);
  if (!restockJoinHooks.includes(restockHook)) restockJoinHooks.push(restockHook);
  registerBuiltinPreviews();
  await engagementRoutes(app, { settings, lists });
}
