/** Customers: the owner's list of everyone who bought or signed up, and one customer's detail. */
import { z } from 'zod';

/** GET /api/admin/customers and /api/admin/customers.csv. */
export const customerListQuery = z.object({ q: z.string().trim().max(200).optional().default('') });
/** GET /api/admin/customers/detail. */
export const customerDetailQuery = z.object({ email: z.string().trim().min(3).max(320) });

export interface CustomerSummary {
  email: string;
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
