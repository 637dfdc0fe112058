/**
 * The emails of the finished areas in the preview (301): order confirmation (checkout), back in stock
 * (restock), form notification (forms) and the newsletter confirmation (this area). Each is rendered by
 * the function that sends it, with sample data.
 */
import type { OrderRow } from '../../core/orders.js';
import { restockEmail } from '../restock/index.js';
import { notificationMail } from '../forms/index.js';
import type { FormRow } from '../forms/index.js';
import type { FormField } from '../../core/forms.js';
import { ProductType } from '../../core/enums.js';
import { newsletterConfirmationEmail } from './emails.js';
import { registerEmailPreview } from '../mail/index.js';
import { CONFIRM_PATH } from './lists.js';

const SAMPLE_ID = '0123456789abcdef01234567';

export function registerBuiltinPreviews(): void {
  registerEmailPreview('order-confirmation', {
    label: 'Order confirmation',
    async render(ctx) {
      const checkout = ctx.app.checkout.service;
      await checkout.loadSecret();
      const order: OrderRow = {
        id: SAMPLE_ID,
        websiteId: '',
        orderNumber: 1001,
        idempotencyKey: '',
        cartId: '',
        cartKind: 'cart',
        status: 'paid',
        testMode: false,
        email: 'customer@example.com',
        shippingAddress: null,
        items: [
          { productName: 'Linen Shirt', sku: 'SQ-SHIRT-M', quantity: 2, unitPriceCents: 4500, productType: ProductType.PHYSICAL },
          { productName: 'Pattern Book (PDF)', sku: 'SQ-BOOK', quantity: 1, unitPriceCents: 1200, productType: ProductType.DIGITAL },
        ],
        currency: ctx.currency,
        subtotalCents: 10200,
        discountCents: 1000,
        shippingCents: 600,
        taxCents: 780,
        grandTotalCents: 10580,
        giftCardCents: 0,
        giftCardId: null,
        shippingOption: { id: 'standard', name: 'Standard', costCents: 600 },
        coupons: ['WELCOME10'],
        taxRules: [],
        payment: null,
        created: new Date(ctx.now),
        fulfilledAt: null,
        refundedAt: null,
        fulfilmentStatus: 'unfulfilled',
        refundedCents: 0,
      };
      return checkout.confirmationEmail(order, { origin: ctx.origin, siteTitle: ctx.storeName }, [], ctx.now);
    },
  });

  registerEmailPreview('restock', {
    label: 'Back in stock',
    render: (ctx) =>
      restockEmail({
        storeName: ctx.storeName,
        productTitle: 'Linen Shirt',
        variantText: 'Size: M, Color: Navy',
        productUrl: `${ctx.origin}/shop/p/linen-shirt`,
        unsubscribeUrl: `${ctx.origin}/restock/unsubscribe/sample`,
        look: ctx.look,
      }),
  });

  registerEmailPreview('form-notification', {
    label: 'Form notification',
    render: () => {
      const fields: FormField[] = [
        { id: 'name', type: 'name', title: 'Name', required: true },
        { id: 'email', type: 'email', title: 'Email', required: true },
        { id: 'message', type: 'textarea', title: 'Message' },
        { id: 'phone', type: 'phone', title: 'Phone' },
      ];
      const form = { id: 'contact-form', name: 'Contact us' } as FormRow;
      return notificationMail(
        form,
        fields,
        { name: ['Ada', 'Lovelace'], email: 'ada@example.com', message: 'Do you ship to Canada?', phone: ['', '', '', ''] },
        'owner@example.com',
        SAMPLE_ID,
        { pageTitle: 'Contact', pagePath: '/contact' },
      );
    },
  });

  registerEmailPreview('newsletter-confirmation', {
    label: 'Newsletter confirmation',
    render: (ctx) =>
      newsletterConfirmationEmail({
        storeName: ctx.storeName,
        listName: 'Newsletter',
        confirmUrl: `${ctx.origin}${CONFIRM_PATH}/sample`,
        look: ctx.look,
      }),
  });
}
