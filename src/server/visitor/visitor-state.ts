/**
 * Whether a page's render printed something of the visitor's own that the page cache cannot put in place
 * afterwards (pages/page-cache.ts): a developer template's `shoppingCart` or `squarespace.cart-classes`
 * (the "Cart (n)" idiom), its `authenticatedAccount`. The template context reads these lazily
 * (themes/adapter.ts), so only a render that names one of them counts; a template that never prints them
 * keeps its pages shared. Who is signed in as a site user is watched on its own (site-user.ts).
 */
import type { FastifyRequest } from 'fastify';

const READ = Symbol('visitorStateRead');
type Marked = FastifyRequest & { [READ]?: true };

/** The render being made for this request printed the visitor's own cart or account. */
export function noteVisitorStateRead(req: FastifyRequest): void {
  (req as Marked)[READ] = true;
}

/** Whether the request's render printed the visitor's own cart or account (noteVisitorStateRead). */
export const visitorStateWasRead = (req: FastifyRequest): boolean => (req as Marked)[READ] === true;
