/**
 * The quick-view button ('Quick View') and its modal: the product's image, title and price with the
 * purchase controls, in an accessible dialog. The stock is refreshed from the inventory call when the
 * dialog opens.
 */
import { useEffect, useState } from 'react';
import { commerce } from '../../core/messages.js';
import { priceRange } from '../../core/product.js';
import { formatMoney } from '../../core/money.js';
import { Modal } from './Modal.js';
import { AddToCart, ProductScarcity, QuantityInput, VariantSelect } from './ProductControls.js';
import { domId, structuredContentOf, type ProductProps } from './product-props.js';
import { cartApi } from '../client/cart-api.js';

export interface QuickViewProps {
  product: ProductProps;
  fullUrl: string;
  image?: { assetUrl?: string; altText?: string } | null;
  label?: string;
  group?: string;
}

export function priceRangeText(product: ProductProps): string {
  const r = priceRange(structuredContentOf(product));
  if (!r) return '';
  const min = formatMoney(r.min, product.currency);
  return r.min === r.max ? min : `${min} – ${formatMoney(r.max, product.currency)}`;
}

export function QuickView({ product: initial, fullUrl, image, label = commerce.QUICK_VIEW, group = '' }: QuickViewProps) {
  const [open, setOpen] = useState(false);
  const [product, setProduct] = useState(initial);
  const scope = `${initial.itemId}-quick-view`;
  // Without JavaScript (and until hydration) Quick View is a link to the product page; hydrated, a button.
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);

  const show = () => {
    setOpen(true);
    cartApi
      .stock(initial.itemId)
      .then(({ results }) => {
        const bySku = new Map(results.map((r) => [r.sku, r]));
        setProduct((p) => ({
          ...p,
          variants: p.variants.map((v) => ({
            ...v,
            ...(bySku.has(v.sku) ? { qtyInStock: bySku.get(v.sku)!.qtyInStock, unlimited: bySku.get(v.sku)!.unlimited } : {}),
          })),
        }));
      })
      .catch(() => {
        /* the page's stock stays; the server checks again on add */
      });
  };

  return (
    <>
      {enhanced ? (
        <button type="button" className="sqs-product-quick-view-button" data-id={initial.itemId} data-group={group} onClick={show}>
          {label}
          <span className="visually-hidden"> {initial.title}</span>
        </button>
      ) : (
        <a className="sqs-product-quick-view-button" data-id={initial.itemId} data-group={group} href={fullUrl}>
          {label}
          <span className="visually-hidden"> {initial.title}</span>
        </a>
      )}
      {open && (
        <Modal title={product.title} titleId={domId(scope, 'title')} onClose={() => setOpen(false)} className="product-quick-view-lightbox">
          <div className="product-quick-view">
            {image?.assetUrl && (
              <img
                className="product-quick-view__image"
                src={image.assetUrl}
                alt={image.altText ?? product.title}
                width={300}
                height={300}
              />
            )}
            <div className="product-quick-view__meta">
              <div className="product-price">{priceRangeText(product)}</div>
              <VariantSelect product={product} scope={scope} />
              <QuantityInput product={product} scope={scope} />
              <ProductScarcity
                product={product}
                scope={scope}
                text="Only {qtyInStock} left in stock"
                threshold={5}
                shownByDefault={false}
              />
              <AddToCart product={product} scope={scope} />
              <a className="product-quick-view__details" href={fullUrl}>
                View full details
              </a>
            </div>
          </div>
        </Modal>
      )}
    </>
  );
}
