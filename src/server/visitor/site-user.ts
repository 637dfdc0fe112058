/**
 * Who is signed in as a site user, as the page pipeline needs to know it: quietly (for the parts a shared
 * page puts in place per visitor) or watched (a read makes the render personal). The session itself is
 * read by the site-user plugin, which sets `req.siteUser`.
 */
import type { FastifyRequest } from 'fastify';

type SiteUser = NonNullable<FastifyRequest['siteUser']>;
const KEPT_USER = Symbol('tessera.site-user.kept');
const USER_READ = Symbol('tessera.site-user.read');
type Watched = FastifyRequest & { [KEPT_USER]?: SiteUser | null; [USER_READ]?: boolean };

/**
 * The request's site user, read without counting as a read that shapes the page (see watchSiteUserReads):
 * for the two things a shared page puts in place for a signed-in visitor itself, their cart pill and the
 * analytics island's member language.
 */
export function siteUserQuietly(req: FastifyRequest): SiteUser | null {
  const r = req as Watched;
  return KEPT_USER in r ? (r[KEPT_USER] ?? null) : (req.siteUser ?? null);
}

/**
 * From now on, notes whether anything reads `req.siteUser` (the page cache, for a render it will share:
 * a page that asked who is signed in, such as a member area or a course with its progress, is never served
 * to a signed-in visitor from a render made for somebody else). siteUserQuietly is not counted.
 */
export function watchSiteUserReads(req: FastifyRequest): void {
  const r = req as Watched;
  if (KEPT_USER in r) return;
  r[KEPT_USER] = req.siteUser ?? null;
  Object.defineProperty(req, 'siteUser', {
    configurable: true,
    enumerable: true,
    get: () => {
      r[USER_READ] = true;
      return r[KEPT_USER] ?? null;
    },
    set: (user: SiteUser | null) => {
      r[KEPT_USER] = user;
    },
  });
}

/** Whether anything read `req.siteUser` since watchSiteUserReads. */
export const siteUserWasRead = (req: FastifyRequest): boolean => (req as Watched)[USER_READ] === true;
