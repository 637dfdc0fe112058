import type { ComponentType } from 'react';
import { CartPill } from './CartPill.js';
import { RestockSignUp } from './RestockSignUp.js';
import { Gallery } from './Gallery.js';
import { AddToCart, ProductScarcity, QuantityInput, VariantSelect } from './ProductControls.js';
import { QuickView } from './QuickView.js';
import { CartPage } from '../pages/CartPage.js';
import { CheckoutPage } from '../pages/CheckoutPage.js';
import { Form } from './Form.js';
import { AccountPage } from './AccountPage.js';

/** Every island a page may hold, by the name the server writes into data-island. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const islands: Record<string, ComponentType<any>> = {
  CartPill,
  RestockSignUp,
  Gallery,
  AddToCart,
  VariantSelect,
  QuantityInput,
  ProductScarcity,
  QuickView,
  CartPage,
  CheckoutPage,
  Form,
  AccountPage,
};
