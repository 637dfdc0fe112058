/**
 * The restock sign-up form on product pages. The template engine's `product-restock-notification`
 * formatter calls the injected WidgetRenderer; the product page renderer answers it with
 * `restockSignUpHtml(props.item, storeSettings)`. It draws the RestockSignUp island for a physical or
 * service product that has a sold-out variant, and nothing otherwise.
 */
import { renderIsland } from '../../web/ssr.js';
import { ProductType } from '../../core/enums.js';
import type { RestockCaptchaConfig, RestockSignUpProps, RestockVariant } from '../../core/api/restock.js';
import { restockSettingsOf, successTextOf } from './settings.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The island's props for a product as page contexts hold it, or null when no form belongs there. */
export function restockSignUpProps(
  item: unknown,
  storeSettings: unknown,
  opts: { scope?: string; captcha?: RestockCaptchaConfig | null } = {},
): RestockSignUpProps | null {
  const i = obj(item);
  const sc = obj(i.structuredContent);
  if (typeof i.id !== 'string' || !Array.isArray(sc.variants)) return null;
  const productType = Number(sc.productType) || ProductType.PHYSICAL;
  if (productType !== ProductType.PHYSICAL && productType !== ProductType.SERVICE) return null;
  const variants: RestockVariant[] = (sc.variants as unknown[])
    .map((raw) => {
      const v = obj(raw);
      return {
        id: String(v.id ?? ''),
        sku: String(v.sku ?? ''),
        attributes: obj(v.attributes) as Record<string, string>,
        qtyInStock: Number(v.qtyInStock) || 0,
        unlimited: v.unlimited === true,
      };
    })
    .filter((v) => v.id !== '');
  if (!variants.some((v) => !v.unlimited && v.qtyInStock <= 0)) return null;
  const s = restockSettingsOf(storeSettings);
  return {
    productId: i.id,
    scope: opts.scope ?? i.id,
    productType,
    variants,
    variantOptionOrdering: Array.isArray(sc.variantOptionOrdering) ? (sc.variantOptionOrdering as string[]) : undefined,
    hiddenByDefault: s.hiddenByDefault,
    texts: {
      cta: s.ctaText,
      placeholder: s.placeholderText,
      button: s.buttonText,
      mailingListDescription: s.mailingListDescription,
      success: successTextOf(storeSettings),
    },
    mailingList: { enabled: s.mailingListSignUpEnabled, optInByDefault: s.mailingListOptInByDefault },
    multilingualEmails: s.multilingualEmails,
    captcha: opts.captcha ?? null,
  };
}

/** The form's HTML for a product (the store settings, or the whole website settings), or '' when none belongs. */
export function restockSignUpHtml(
  item: unknown,
  storeSettings: unknown,
  opts: { scope?: string; captcha?: RestockCaptchaConfig | null } = {},
): string {
  const props = restockSignUpProps(item, storeSettings, opts);
  return props ? renderIsland('RestockSignUp', props as unknown as Record<string, unknown>) : '';
}
