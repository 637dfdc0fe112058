/**
 * Who is asking: the visitor's cart (cookie and signed-in site user), the crumb (CSRF) and the
 * request's secure and form-post facts, and the marks that tell the page cache a render read
 * visitor state. It imports no area.
 */
export { cartIdent, setCartCookie, siteUserIdOf, type CartIdent } from './cart.js';
export { CRUMB_HEADER, SHARED_PAGE_FORM_ROUTES, crumbPlugin, isFormPost, isSecure, sameOriginPost } from './crumb.js';
export { siteUserQuietly, siteUserWasRead, watchSiteUserReads } from './site-user.js';
export { noteVisitorStateRead, visitorStateWasRead } from './visitor-state.js';
