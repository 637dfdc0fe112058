/** Keeping keyboard focus inside a dialog (WAI-ARIA dialog pattern), shared by every dialog island. */

/** What can take focus by Tab inside a dialog. */
export const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** On Tab and Shift+Tab, wraps focus from the last focusable element of `panel` to the first and back. */
export function keepTabInside(e: { key: string; shiftKey: boolean; preventDefault(): void }, panel: HTMLElement | null): void {
  if (e.key !== 'Tab' || !panel) return;
  const items = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (items.length === 0) {
    e.preventDefault();
    return;
  }
  const first = items[0]!;
  const last = items[items.length - 1]!;
  if (e.shiftKey && (document.activeElement === first || document.activeElement === panel)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
