/**
 * The storefront's island props: the data the server renders the product, cart page, gallery and like
 * button islands with (serialised into the page as JSON), typed once for both sides.
 */
import type { SubscriptionPlan } from '../product.js';
import type { FormField } from '../forms.js';
import type { InstalmentContext } from '../instalments.js';

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

/** The instalment context served with the cart (the store's and each item's). */
export interface CartInstalmentContext {
  store: InstalmentContext;
  items: Record<string, InstalmentContext>;
}

export interface CartPageEntry {
  id: string;
  itemId: string;
  chosenVariant: { sku: string; attributes: Record<string, string> };
  quantity: number;
  title: string;
  purchasePriceCents: number;
  subTotalCents: number;
  /** The line total exactly (minor units as a string); shown in preference to subTotalCents. */
  subTotal?: { value: string };
  additionalFields: string;
  fullUrl: string;
  image: { assetUrl?: string; altText?: string } | null;
}

export interface CartPageCart {
  id: string | null;
  entries: CartPageEntry[];
  subtotalCents: number;
  /** The subtotal exactly (minor units as a string); shown in preference to subtotalCents. */
  subtotal?: { value: string };
  totalQuantity: number;
  [key: string]: unknown;
}

export interface CartPageProps {
  cart: CartPageCart;
  currency: string;
  /** storeSettings.minimumOrderSubtotalCents (0 when none). */
  minimumOrderSubtotalCents: number;
  /** The visitor's crumb, for the forms that work without JavaScript. */
  crumb: string;
  /** Additional-fields forms by item id. */
  forms: Record<string, AdditionalFieldsFormProps>;
  checkoutUrl?: string;
  /** The instalment context served with the cart (the store's and each item's). */
  instalments?: CartInstalmentContext | null;
}

export interface GalleryImage {
  id: string;
  title: string;
  description: string;
  src: string;
  srcset: string;
  width: number;
  height: number;
  alt: string;
  focalPoint: { x: number; y: number };
}

export interface GalleryOptionsProps {
  design: 'grid' | 'slideshow' | 'slider' | 'stacked';
  autoplay: boolean;
  autoplayDuration: number;
  controls: boolean;
  autoCrop: boolean;
  aspectRatio: string;
  aspectRatioValue: number;
  /** Slideshow and slider height as a percentage of their width. */
  sliderAspectRatio: number;
  squareThumbs: boolean;
  thumbnails: boolean;
  thumbnailStripHeight: number;
  thumbnailStripMargin: number;
  showMetaBasic: boolean;
  showMeta: boolean;
  showMetaOnlyTitle: boolean;
  metaPosition: string;
  showMetaOnHover: boolean;
  activeAlignment: 'left' | 'center' | 'right';
  thumbnailsPerRow: number;
  padding: number;
  lightbox: boolean;
  lightboxTheme: 'dark' | 'light';
  maxWidth: number;
  newWindow: boolean;
  transparentBackground: boolean;
}

export interface GalleryProps {
  id: string;
  title: string;
  options: GalleryOptionsProps;
  images: GalleryImage[];
}

export interface LikeButtonProps {
  itemId: string;
  /** POST /api/content-items/{itemId}/like */
  action: string;
  count: number;
  title: string;
}
