/**
 * The payment reconciler: settles payment attempts a crash left open between the charge and the order
 * commit (see CheckoutService.reconcile), or the donation's row (DonationService.settleAttempt). It runs once when the process starts listening and then every
 * few minutes, in worker processes (WORKERS). An attempt is taken only once it has been untouched for
 * PAYMENT_RECONCILE_AFTER_SECONDS, so a checkout still in flight in another process is never settled
 * under it; several processes may run it at once (each attempt is settled by one conditional update).
 */
import type { FastifyBaseLogger } from 'fastify';

export interface Reconcilable {
  reconcile(olderThanMs: number): Promise<{ completed: number; voided: number }>;
}

export class PaymentReconciler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly target: Reconcilable,
    private readonly opts: { afterMs: number; everyMs: number },
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** One pass; never throws (a failed pass is logged and the next one tries again). */
  runOnce(): Promise<void> {
    this.running ??= (async () => {
      try {
        const r = await this.target.reconcile(this.opts.afterMs);
        if (r.completed + r.voided > 0) this.log?.warn(r, 'payment reconciler settled open payment attempts');
      } catch (err) {
        this.log?.error({ err: (err as Error).message }, 'payment reconciler pass failed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  start(): void {
    if (this.timer) return;
    void this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.opts.everyMs);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
