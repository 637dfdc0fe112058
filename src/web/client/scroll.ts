/**
 * Scrolling to an element and waiting for one: the scroll stops 30 px above the
 * element and eases over the default 300 ms tween, or jumps at once when the visitor prefers reduced
 * motion; waiting for an element gives up after 3000 ms and looks again at most every 100 ms while the
 * markup changes.
 */
import { DEFAULT_TWEEN_MS, SCROLL_OFFSET_PX, WAIT_FOR_ELEMENT_DEBOUNCE_MS, WAIT_FOR_ELEMENT_TIMEOUT_MS } from '../../core/constants.js';

export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

const ease = (t: number) => (t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2);

/** Scrolls the window so `el` sits `offset` px below the top; resolves when the scroll is done. */
export function scrollToElement(el: Element, opts: { offset?: number; duration?: number } = {}): Promise<void> {
  const offset = opts.offset ?? SCROLL_OFFSET_PX;
  const duration = opts.duration ?? DEFAULT_TWEEN_MS;
  const max = Math.max(0, document.documentElement.scrollHeight - window.innerHeight);
  const target = Math.min(max, Math.max(0, el.getBoundingClientRect().top + window.scrollY - offset));
  const start = window.scrollY;
  if (prefersReducedMotion() || duration <= 0 || Math.abs(target - start) < 1) {
    window.scrollTo({ top: target, behavior: 'instant' });
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const t0 = performance.now();
    const step = (now: number) => {
      const t = Math.min(1, (now - t0) / duration);
      window.scrollTo({ top: start + (target - start) * ease(t), behavior: 'instant' });
      if (t < 1) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}

/**
 * The first element matching `selector` under `root`, as soon as it exists: looked for at once, then
 * again after the markup has been still for the debounce; null once the timeout passes.
 */
export function waitForElement<T extends Element = Element>(
  root: ParentNode & Node,
  selector: string,
  opts: { timeout?: number; debounce?: number } = {},
): Promise<T | null> {
  const timeout = opts.timeout ?? WAIT_FOR_ELEMENT_TIMEOUT_MS;
  const debounce = opts.debounce ?? WAIT_FOR_ELEMENT_DEBOUNCE_MS;
  const found = root.querySelector<T>(selector);
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const finish = (el: T | null) => {
      observer.disconnect();
      clearTimeout(giveUp);
      if (timer) clearTimeout(timer);
      resolve(el);
    };
    const observer = new MutationObserver(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        const el = root.querySelector<T>(selector);
        if (el) finish(el);
      }, debounce);
    });
    observer.observe(root, { childList: true, subtree: true, attributes: true });
    const giveUp = setTimeout(() => finish(root.querySelector<T>(selector)), timeout);
  });
}
