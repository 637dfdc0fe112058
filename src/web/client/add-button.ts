/**
 * The add-to-cart button's states: idle -> adding ('Adding…'); on failure the
 * error shows and the button is idle again after 1 s; on success with express checkout the visitor goes
 * to checkout; on other successes the label shows 'Added!' after 1 s and the button is idle 2 s later.
 * A button that is adding or added ignores clicks. Timers are injectable for tests.
 */
import { ADD_TO_CART_ADDED_DELAY_MS, ADD_TO_CART_RESET_DELAY_MS } from '../../core/constants.js';
import { commerce } from '../../core/messages.js';

export type ButtonState = 'idle' | 'adding' | 'added';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function buttonLabel(state: ButtonState, idleLabel: string): string {
  if (state === 'adding') return commerce.ADDING;
  if (state === 'added') return commerce.ADDED;
  return idleLabel;
}

export class AddButtonMachine {
  state: ButtonState = 'idle';
  private handles: unknown[] = [];

  constructor(
    private readonly onChange: (state: ButtonState) => void,
    private readonly timers: Timers = realTimers,
  ) {}

  private set(state: ButtonState) {
    this.state = state;
    this.onChange(state);
  }

  private after(ms: number, fn: () => void) {
    this.handles.push(this.timers.setTimeout(fn, ms));
  }

  /** A click: true when the add may start (the button was idle). */
  start(): boolean {
    if (this.state !== 'idle') return false;
    this.set('adding');
    return true;
  }

  succeeded(express = false) {
    if (express) return; // the page is leaving for checkout
    this.after(ADD_TO_CART_ADDED_DELAY_MS, () => {
      this.set('added');
      this.after(ADD_TO_CART_RESET_DELAY_MS, () => this.set('idle'));
    });
  }

  failed() {
    this.after(ADD_TO_CART_ADDED_DELAY_MS, () => this.set('idle'));
  }

  dispose() {
    for (const h of this.handles) this.timers.clearTimeout(h);
    this.handles = [];
  }
}
