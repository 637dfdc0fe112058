/**
 * Widget rendering seam. Formatters that draw widgets (add-to-cart button,
 * variants select, quantity input, restock form, ...) call the injected
 * renderer when one is given; otherwise they produce the documented platform
 * markup as strings. The engine never imports React.
 */
export type WidgetName =
  | 'add-to-cart-btn'
  | 'variants-select'
  | 'quantity-input'
  | 'product-restock-notification'
  | 'product-scarcity'
  | 'product-quick-view'
  | 'product-status'
  | 'product-checkout'
  | 'like-button'
  | 'comment-link'
  | 'comments'
  | 'social-button'
  | 'social-button-inline'
  | 'twitter-follow-button'
  | 'audio-player'
  | 'video';

export interface WidgetProps {
  /** The value the formatter was applied to (usually an item). */
  item: unknown;
  /** The formatter arguments. */
  args: string[];
  /** The default markup the engine would produce on its own. */
  html: string;
  /** Widget-specific data the engine derived (labels, state, ...). */
  data: Record<string, unknown>;
  locale: string;
}

export interface WidgetRenderer {
  /** Return markup for the widget, or undefined to keep the engine's default markup. */
  render(name: WidgetName, props: WidgetProps): string | undefined;
}
