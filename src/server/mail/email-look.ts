/**
 * The look of the site's HTML emails from its saved site styles (issue #27), read inside the sender's
 * transaction; the default look until an owner has saved styles.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../db-util.js';
import type { Db, Tx } from '../../db/index.js';
import { DEFAULT_EMAIL_LOOK, emailLook, normaliseStyles, type EmailLook, type SiteStyles } from '../../core/site-styles.js';

export async function emailLookFor(db: Db | Tx, websiteId: string): Promise<EmailLook> {
  const r = await rows<{ styles: string }>(db, sql`SELECT styles FROM site_styles WHERE website_id = ${websiteId}`);
  return r[0] ? emailLook(normaliseStyles(JSON.parse(r[0].styles) as Partial<SiteStyles>)) : DEFAULT_EMAIL_LOOK;
}
