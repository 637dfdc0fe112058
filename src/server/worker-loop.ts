/**
 * A background worker's loop: one pass at a time, a kick during a pass asks for one more pass after
 * it, and a timer kicks it periodically. The job queue and the mail outbox run their passes on it.
 */
export class WorkerLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly onError: (e: unknown) => void,
  ) {}

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } catch (e) {
        this.onError(e);
      } finally {
        this.running = null;
      }
    })();
  }

  /** Kicks every intervalMs (the timer does not keep the process alive); a second call does nothing. */
  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for the pass under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
