/**
 * Content widgets: the markup of the template formatters that draw comment links, share buttons,
 * audio and video blocks. Everything works without JavaScript and reaches no third party until the
 * visitor clicks. Widgets this renderer does not draw go to the next renderer (commerce).
 */
import type { WidgetName, WidgetProps, WidgetRenderer } from '../../template/index.js';
import { commerce as messages } from '../../core/messages.js';
import { renderIsland } from '../../web/ssr.js';
import type { LikeButtonProps } from '../../core/api/storefront.js';
import { likeUrl } from '../content/index.js';
import { escapeHtml } from '../../core/html.js';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return v !== null && typeof v === 'object' ? (v as Obj) : {};
}

/** Only http(s) and site-relative links are written into href/src. */
export function safeUrl(u: unknown): string {
  const s = String(u ?? '').trim();
  return /^(https?:\/\/|\/(?!\/))/i.test(s) ? s : '#';
}

export const SHARE_SERVICES: Record<string, { label: string; url: (u: string, t: string, img: string) => string }> = {
  facebook: { label: 'Facebook', url: (u) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(u)}` },
  twitter: {
    label: 'X (Twitter)',
    url: (u, t) => `https://twitter.com/intent/tweet?url=${encodeURIComponent(u)}&text=${encodeURIComponent(t)}`,
  },
  pinterest: {
    label: 'Pinterest',
    url: (u, t, img) =>
      `https://www.pinterest.com/pin/create/button/?url=${encodeURIComponent(u)}&media=${encodeURIComponent(img)}&description=${encodeURIComponent(t)}`,
  },
  linkedin: { label: 'LinkedIn', url: (u) => `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(u)}` },
  email: { label: 'Email', url: (u, t) => `mailto:?subject=${encodeURIComponent(t)}&body=${encodeURIComponent(u)}` },
};

export function shareButtons(item: Obj, options: Obj, origin: string, inline: boolean): string {
  const services = Object.keys(SHARE_SERVICES).filter((k) => options[k] === true);
  if (services.length === 0) return '';
  const url = origin + String(item.fullUrl ?? '/');
  const title = String(item.title ?? '');
  const img = item.assetUrl ? origin + String(item.assetUrl) : '';
  const tag = inline ? 'span' : 'div';
  const links = services
    .map((k) => {
      const s = SHARE_SERVICES[k];
      return `<a class="share-button share-button--${k}" href="${escapeHtml(s.url(url, title, img))}" target="_blank" rel="noopener noreferrer">${escapeHtml(s.label)}<span class="visually-hidden"> (opens in a new window)</span></a>`;
    })
    .join('');
  return `<${tag} class="squarespace-social-buttons share-buttons ${inline ? 'inline-style' : 'button-style'}" role="group" aria-label="Share ${escapeHtml(title)}">${inline ? '' : '<span class="share-buttons__label">Share</span>'}${links}</${tag}>`;
}

export function contentWidgets(next: WidgetRenderer | undefined, opts: { origin: string; shareButtonOptions: Obj }): WidgetRenderer {
  return {
    render(name: WidgetName, props: WidgetProps): string | undefined {
      const item = obj(props.item);
      switch (name) {
        case 'comment-link': {
          const count = Number(item.publicCommentCount ?? 0) || 0;
          return `<a href="${escapeHtml(safeUrl(item.fullUrl))}#comments-${escapeHtml(item.id)}" class="sqs-comment-link" data-id="${escapeHtml(item.id)}"${count > 0 ? ` aria-label="${count} comment${count === 1 ? '' : 's'}"` : ''}>${escapeHtml(messages.commentLink(count))}</a>`;
        }
        case 'like-button': {
          // The like button (server/content/likes.ts): items of content collections with an id; products have none.
          const id = String(item.id ?? '');
          if (!/^[A-Za-z0-9_-]{1,64}$/.test(id) || item.likeCount === undefined) return '';
          const props: LikeButtonProps = {
            itemId: id,
            action: likeUrl(id),
            count: Number(item.likeCount) || 0,
            title: String(item.title ?? ''),
          };
          return renderIsland('LikeButton', props as unknown as Record<string, unknown>);
        }
        case 'social-button':
        case 'social-button-inline':
          return shareButtons(item, opts.shareButtonOptions, opts.origin, name === 'social-button-inline');
        case 'audio-player': {
          const sc = obj(item.structuredContent);
          const src = safeUrl(sc.audioAssetUrl);
          if (src === '#') return '';
          return (
            `<figure class="audio-block" id="audio-player-${escapeHtml(item.id)}"><figcaption class="audio-block__title">${escapeHtml(sc.title || item.title)}</figcaption>` +
            `<audio controls preload="none" src="${escapeHtml(src)}"><a href="${escapeHtml(src)}">Download the audio</a></audio></figure>`
          );
        }
        case 'video': {
          const sc = obj(item.structuredContent);
          const src = safeUrl(sc.videoUrl ?? obj(item.oembed).url);
          const poster = obj(item.image).tag ? String(obj(item.image).tag) : '';
          const provider = String(sc.providerName ?? obj(item.oembed).providerName ?? '');
          return (
            `<figure class="sqs-video-wrapper video-block"><a class="video-block__link" href="${escapeHtml(src)}" target="_blank" rel="noopener noreferrer">${poster}` +
            `<span class="video-block__play"><svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false"><path d="M8 5v14l11-7z" fill="currentColor"/></svg>` +
            `Play video${provider ? ` on ${escapeHtml(provider)}` : ''}<span class="visually-hidden"> (opens in a new window)</span></span></a></figure>`
          );
        }
        default:
          return next?.render(name, props);
      }
    },
  };
}
