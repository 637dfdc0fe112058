/** The content area's door: what other areas use of it. */
export { likeCounts, likeUrl } from './likes.js';
export { cleanOwnerHtml, ownerPlainText } from './owner-html.js';
export { publishScheduled } from './scheduled.js';
