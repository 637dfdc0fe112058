/** Signed links: the reviews request page's token (and the donation receipt's), made with one install key. */
import type { Database } from '../../db/index.js';
import { installKey } from '../signed-links.js';

export { signLink, verifyLink } from '../signed-links.js';

/** The install's secret for review and receipt links. */
export function linkKey(database: Database): Promise<string> {
  return installKey(database, 'reviews_link_key');
}
