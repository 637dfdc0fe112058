/** Customers: the owner's list of everyone who bought or signed up, and one customer's detail. */
import { z } from 'zod';
import { customerMessages } from '../messages.js';

/** GET /api/admin/customers and /api/admin/customers.csv. */
export const customerListQuery = z.object({ q: z.string().trim().max(200).optional().default('') });
/** GET /api/admin/customers/detail. */
export const customerDetailQuery = z.object({ email: z.string().trim().min(3).max(320) });

/** PUT /api/admin/customers/profile: what the owner keeps about a customer (the whole profile each time). */
export const CUSTOMER_TAG_MAX = 20;
export const customerProfileBody = z.object({
  email: z.string().trim().min(3).max(320),
  name: z.string().trim().max(200).default(''),
  phone: z
    .string()
    .trim()
    .max(40)
    .regex(/^[+0-9 ().-]*$/, customerMessages.PHONE_INVALID)
    .default(''),
  note: z.string().max(5000).default(''),
  tags: z.array(z.string().trim().min(1).max(40)).max(CUSTOMER_TAG_MAX, customerMessages.TOO_MANY_TAGS).default([]),
});
export type CustomerProfileBody = z.infer<typeof customerProfileBody>;

export interface CustomerSummary {
  email: string;
  /** The owner's name for them, else the name on their latest order, else their account's. */
  name: string;
  tags: string[];
  phone: string;
  /** Their latest order's address on one line, in its country's format. */
  address: string;
  acceptsMarketing: boolean;
  orders: number;
  spendCents: number;
  account: boolean;
  mailingLists: number;
  restockSignUps: number;
  lastSeen: string;
}

export interface CustomerList {
  currency: string;
  customers: CustomerSummary[];
}

/** One customer; the times are ISO strings (null only for a row without one). */
export interface CustomerDetail {
  email: string;
  /** As CustomerSummary's; `profile` holds what the owner typed, unfilled where they typed nothing. */
  name: string;
  profile: { name: string; phone: string; note: string; tags: string[] };
  /** On at least one mailing list, subscribed (the double opt-in done). */
  acceptsMarketing: boolean;
  /** Every distinct address they gave (orders, newest first, then saved ones), printed in its country's format. */
  addresses: Array<{ lines: string[]; from: 'order' | 'account' }>;
  spendCents: number;
  orders: Array<{ id: string; orderNumber: number; status: string; grandTotalCents: number; created: string | null }>;
  account: { state: 'active' | 'disabled'; created: string | null } | null;
  mailingLists: Array<{ name: string; status: string; since: string | null }>;
  restockSignUps: Array<{ id: string; product: string; variant: string; status: string; created: string | null }>;
}

export interface CustomerDetailAnswer {
  currency: string;
  customer: CustomerDetail;
}
