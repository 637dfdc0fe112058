/** The product data the product islands receive from the server (compact, JSON), and its core view. */
import type { StructuredContent, SubscriptionPlan, Variant } from '../../core/product.js';
import type { FormField } from '../../core/forms.js';
import { money } from '../../core/money.js';
import { ProductType } from '../../core/enums.js';
import type { InstalmentContext } from '../../core/instalments.js';

export interface VariantProps {
  sku: string;
  attributes: Record<string, string>;
  qtyInStock: number;
  unlimited: boolean;
  priceCents: number;
  salePriceCents: number;
  onSale: boolean;
  /** The variant's own image: the product page shows it while the variant is chosen. */
  imageUrl?: string;
}

export interface AdditionalFieldsFormProps {
  id: string;
  name?: string;
  fields: FormField[];
}

export interface ProductProps {
  itemId: string;
  title: string;
  productType: number;
  isSubscribable: boolean;
  subscriptionPlan?: SubscriptionPlan | null;
  variants: VariantProps[];
  variantOptionOrdering?: string[];
  useCustomAddButtonText?: boolean;
  customAddButtonText?: string;
  additionalFieldsForm?: AdditionalFieldsFormProps | null;
  currency: string;
  multipleQuantityAllowedForServices: boolean;
  onSale?: boolean;
  /** The per-item instalment context (afterPayAvailable, afterPayMin, afterPayMax, shopperLanguage, stripeAccountCountry). */
  instalments?: InstalmentContext | null;
}

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
