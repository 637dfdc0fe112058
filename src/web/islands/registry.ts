import type { ComponentType } from 'react';
import { CartPill } from './CartPill.js';

/** Every island a page may hold, by the name the server writes into data-island. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const islands: Record<string, ComponentType<any>> = {
  CartPill,
};
