/** Widgets built by string concatenation must equal their readable template form. */
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template';
import { ADD_TO_CART, QUANTITY_INPUT } from '../../../src/template/formatters/commerce';

const variant = { qtyInStock: 5, priceMoney: { value: '2', currency: 'USD' } };
const items: unknown[] = [
  { id: 'p1', collectionId: 'c1', structuredContent: { productType: 1, variants: [variant] } },
  {
    id: 'p2',
    structuredContent: { productType: 1, variants: [variant], useCustomAddButtonText: true, customAddButtonText: 'Buy <now> & "save"' },
  },
  {
    id: 'p3',
    collectionId: 'c3',
    structuredContent: {
      productType: 1,
      variants: [variant],
      isSubscribable: true,
      productSubscriptionOptions: [{ id: 'so1' }],
      additionalFieldsFormId: 'f1',
      additionalFieldsForm: { name: '</script>', fields: [1] },
    },
  },
  { id: 'p4', structuredContent: { productType: 1, variants: [variant], isSubscribable: true } },
  { id: 5, structuredContent: { productType: 3, variants: [variant] } },
];
const roots: unknown[] = [
  {},
  {
    localizedStrings: {
      productAddToCartText: 'Ajouter <au> panier',
      productSubscribeText: "S'abonner",
      productQuantityInputLabel: 'Quantité',
    },
  },
];

describe('widget markup', () => {
  for (const [i, item] of items.entries()) {
    for (const [j, root] of roots.entries()) {
      it(`add-to-cart-btn and quantity-input #${i}/${j}`, () => {
        const json = { ...(root as object), item };
        const partials = { atc: ADD_TO_CART, qty: QUANTITY_INPUT };
        const viaTemplate = render('{item|apply atc}|{item|apply qty}', json, { partials });
        const direct = render('{item|add-to-cart-btn}|{item|quantity-input}', json);
        const [atc, qty] = viaTemplate.output.split('|');
        const [atc2, qty2] = direct.output.split('|');
        expect(atc2).toBe(atc);
        // The quantity input only shows for products that allow it.
        if (qty2 !== '') expect(qty2).toBe(qty);
      });
    }
  }
});

describe('comment-link markup', () => {
  const cases: unknown[] = [
    { id: 'i1', fullUrl: '/a', publicCommentCount: 0 },
    { id: 'i1', fullUrl: '/a', publicCommentCount: 1 },
    { id: 'i1', fullUrl: '/a', publicCommentCount: 7 },
    { id: 3, fullUrl: '/a' },
    { fullUrl: '/a', publicCommentCount: '0' },
  ];
  for (const [i, item] of cases.entries()) {
    for (const disqus of [false, true]) {
      it(`#${i} disqus=${disqus}`, async () => {
        const { COMMENT_LINK } = await import('../../../src/template/formatters/social');
        const json = { item, websiteSettings: disqus ? { disqusShortname: 'x' } : {} };
        const a = render('{item|apply cl}', json, { partials: { cl: COMMENT_LINK } }).output;
        const b = render('{item|comment-link}', json).output;
        expect(b).toBe(a);
      });
    }
  }
});
