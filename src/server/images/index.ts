/** The images area's door: what other areas use of it. */
export { imageRoutes } from './routes.js';
export { FORMAT_WIDTHS, ImageVariantError, ImageVariants, renderVariant, variantContentType } from './variants.js';
