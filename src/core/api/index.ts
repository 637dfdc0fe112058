/**
 * The contract between the server and the browser: per area, the zod schemas and inferred types of every
 * request and response body. Routes parse with these schemas; the admin, islands and client type their calls
 * and forms with them. Nothing else declares a wire shape.
 */
export * as catalog from './catalog.js';
export * as common from './common.js';
export * as accounts from './accounts.js';
export * as checkout from './checkout.js';
export * as storefront from './storefront.js';
export * as restock from './restock.js';
export * as captcha from './captcha.js';
export * as forms from './forms.js';
export * as reviews from './reviews.js';
export * as analytics from './analytics.js';
export * as engagement from './engagement.js';
export * as email from './email.js';
export * as customers from './customers.js';
export * as orders from './orders.js';
export * as cart from './cart.js';
export * as themes from './themes.js';
export * as editor from './editor.js';
export * as platform from './platform.js';
