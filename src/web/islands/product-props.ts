/** The product data the product islands receive from the server (compact, JSON), and its core view. */
import { structuredContentOfProps } from '../../core/product.js';
import { ProductType } from '../../core/enums.js';
import type { AdditionalFieldsFormProps, ProductProps, VariantProps } from '../../core/api/storefront.js';
export type { AdditionalFieldsFormProps, ProductProps, VariantProps };
/** The islands' name for core's structuredContentOfProps. */
export const structuredContentOf = structuredContentOfProps;

export const isGiftCard = (p: ProductProps) => p.productType === ProductType.GIFT_CARD;

/** Ids for the elements of one island instance (React's useId would repeat across separately rendered islands). */
export function domId(scope: string, part: string): string {
  return `p-${scope.replace(/[^A-Za-z0-9_-]/g, '-')}-${part.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
