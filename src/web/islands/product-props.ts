/** The product data the product islands receive from the server (compact, JSON), and its core view. */
import type { StructuredContent, Variant } from '../../core/product.js';
import { money } from '../../core/money.js';
import { ProductType } from '../../core/enums.js';
import type { AdditionalFieldsFormProps, ProductProps, VariantProps } from '../../core/api/storefront.js';
export type { AdditionalFieldsFormProps, ProductProps, VariantProps };


/** The product as core's rules read it. */
export function structuredContentOf(p: ProductProps): StructuredContent {
  return {
    productType: p.productType as ProductType,
    isSubscribable: p.isSubscribable,
    subscriptionPlan: p.subscriptionPlan ?? null,
    useCustomAddButtonText: p.useCustomAddButtonText,
    customAddButtonText: p.customAddButtonText,
    variantOptionOrdering: p.variantOptionOrdering,
    onSale: p.onSale,
    variants: p.variants.map(
      (v): Variant => ({
        sku: v.sku,
        attributes: v.attributes,
        qtyInStock: v.qtyInStock,
        unlimited: v.unlimited,
        onSale: v.onSale,
        priceMoney: money(v.priceCents, p.currency),
        salePriceMoney: money(v.salePriceCents, p.currency),
      }),
    ),
  };
}

export const isGiftCard = (p: ProductProps) => p.productType === ProductType.GIFT_CARD;

/** Ids for the elements of one island instance (React's useId would repeat across separately rendered islands). */
export function domId(scope: string, part: string): string {
  return `p-${scope.replace(/[^A-Za-z0-9_-]/g, '-')}-${part.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
