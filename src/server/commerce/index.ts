/** The commerce area's door: what other areas use of it. */
export type { CartService, CartSummary } from './cart-service.js';
export { withReferencedForm } from './form-ref.js';
export { type ProductRecord, variantJson, type VariantRow } from './products.js';
export { cartPageHtml, commerceWidgets, pageMerchandising } from './widgets.js';
