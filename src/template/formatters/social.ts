/** Social formatters: comments, likes, share buttons, Twitter links, calendar links. */
import type { Context } from '../context';
import type { FormatterFn } from '../types';
import { asNumber, asString, emitString, escapeAttr, isTruthy, path, step } from '../util';
import { strftime, zoned } from './date';
import { execTemplate, widget } from './exec';

const P_DISQUS = ['websiteSettings', 'disqusShortname'];
const P_FULL_URL = ['fullUrl'];
const P_ID = ['id'];
const P_COUNT = ['publicCommentCount'];
const emitValue = (x: unknown): string => (typeof x === 'string' ? x : emitString(x));

/** COMMENT_LINK below, by string concatenation (equivalence is tested). */
function commentLinkHtml(v: unknown, ctx: Context): string {
  const saved = ctx.pushValue(v);
  try {
    const url = emitValue(ctx.resolve(P_FULL_URL));
    const id = emitValue(ctx.resolve(P_ID));
    if (isTruthy(ctx.resolve(P_DISQUS))) {
      return '\n  <a href="' + url + '" class="sqs-comment-link sqs-disqus-comment-link" data-id="' + id + '"></a>\n';
    }
    const count = ctx.resolve(P_COUNT);
    return (
      '\n  <a href="' +
      url +
      '#comments-' +
      id +
      '" class="sqs-comment-link" data-id="' +
      id +
      '">\n  ' +
      (count === 0 ? 'No' : emitValue(count)) +
      '\n  Comment' +
      (count === 1 ? '' : 's') +
      '\n  </a>\n'
    );
  } finally {
    ctx.frame = saved;
  }
}

export const COMMENT_LINK = `{.if websiteSettings.disqusShortname}
  <a href="{fullUrl}" class="sqs-comment-link sqs-disqus-comment-link" data-id="{id}"></a>
{.or}
  <a href="{fullUrl}#comments-{id}" class="sqs-comment-link" data-id="{id}">
  {.equal? publicCommentCount 0}No{.or}{publicCommentCount}{.end}
  Comment{.notEqual? publicCommentCount 1}s{.end}
  </a>
{.end}`;

const COMMENTS = `{.if websiteSettings.disqusShortname}
  <div class="squarespace-comments" id="disqus_thread"></div>
{.or}
  <div class="squarespace-comments" id="comments-{id}"{.if item} data-item-id="{item.id}" data-public-comment-count="{item.publicCommentCount}" data-comment-state="{item.commentState}"{.or}{.if collection} data-collection-id="{collection.id}" data-public-comment-count="{collection.publicCommentCount}" data-comment-state="{collection.commentState}"{.end}{.end}></div>
{.end}`;

const LIKE_BUTTON = `{.if @ && websiteSettings.simpleLikingEnabled}
  <span class="sqs-simple-like" data-item-id="{id}" data-like-count="{likeCount}">
    <span class="like-icon"></span>
    <span class="like-count"></span>
  </span>
{.end}`;

/** escape()-style percent encoding, written out (the global is deprecated). */
function legacyEscape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (/[A-Za-z0-9@*_+\-./]/.test(s[i])) out += s[i];
    else if (c < 256) out += '%' + c.toString(16).toUpperCase().padStart(2, '0');
    else out += '%u' + c.toString(16).toUpperCase().padStart(4, '0');
  }
  return out;
}

function socialButton(ctx: Context, item: unknown, inline: boolean): string {
  const website = ctx.resolve(['website']);
  const options = step(website, 'shareButtonOptions');
  const size = options !== null && typeof options === 'object' ? Object.keys(options).length : 0;
  if (website === undefined || options === undefined || size === 0) return '';
  const idNode = step(item, 'systemDataId') ?? step(item, 'mainImageId');
  let asset = step(item, 'assetUrl');
  if (asset === undefined) asset = path(item, ['mainImage', 'assetUrl']);
  const tag = inline ? 'span' : 'div';
  return (
    `<${tag} class="squarespace-social-buttons ${inline ? 'inline-style' : 'button-style'}"` +
    ` data-system-data-id="${asString(idNode)}"` +
    ` data-asset-url="${asString(asset)}"` +
    ` data-record-type="${asString(step(item, 'recordType'))}"` +
    ` data-full-url="${asString(step(item, 'fullUrl'))}"` +
    ` data-title="${escapeAttr(asString(step(item, 'title')))}"></${tag}>`
  );
}

export const SOCIAL_FORMATTERS: Record<string, FormatterFn> = {
  'activate-twitter-links': (v) =>
    asString(v)
      .replace(/(\b(https?|ftp|file):\/\/[-A-Z0-9+&@#/%?=~_|!:,.;]*[-A-Z0-9+&@#\\/%=~_|])/gi, '<a target="new" href="$1">$1</a>')
      .replace(/(^| )@([a-z0-9_]+)/gi, '$1<a target="new" href="https://twitter.com/$2/">@$2</a>')
      .replace(
        /(^| )#([a-z0-9_]+)/gi,
        (_m, pre: string, tag: string) =>
          `${pre}<a target="new" href="https://twitter.com/hashtag/${legacyEscape(tag)}?src=hash">#${tag}</a>`,
      ),
  'comment-count': (v) => {
    const n = asNumber(step(v, 'publicCommentCount'));
    return (n === 0 ? 'No' : String(n)) + ' Comment' + (n !== 1 ? 's' : '');
  },
  'comment-link': (v, args, ctx: Context) => widget(ctx, 'comment-link', v, args, commentLinkHtml(v, ctx)),
  comments: (v, args, ctx: Context) => widget(ctx, 'comments', v, args, execTemplate(ctx, COMMENTS, v, false)),
  'google-calendar-url': (v) => {
    const start = strftime(zoned(asNumber(step(v, 'startDate')), 'UTC'), '%Y%m%dT%H%M%SZ');
    const end = strftime(zoned(asNumber(step(v, 'endDate')), 'UTC'), '%Y%m%dT%H%M%SZ');
    let url = `http://www.google.com/calendar/event?action=TEMPLATE&text=${legacyEscape(asString(step(v, 'title')))}&dates=${start}/${end}`;
    const loc = step(v, 'location');
    if (loc !== undefined) {
      const text = ['addressLine1', 'addressLine2', 'addressCountry']
        .map((k) => asString(step(loc, k)).trim())
        .filter((s) => s.length > 0)
        .join(', ');
      if (text !== '') url += `&location=${encodeURIComponent(text)}`;
    }
    return url;
  },
  'like-button': (v, args, ctx: Context) => widget(ctx, 'like-button', v, args, execTemplate(ctx, LIKE_BUTTON, v, false)),
  'social-button': (v, args, ctx: Context) => widget(ctx, 'social-button', v, args, socialButton(ctx, v, false)),
  'social-button-inline': (v, args, ctx: Context) => widget(ctx, 'social-button-inline', v, args, socialButton(ctx, v, true)),
  'twitter-follow-button': (v, args, ctx: Context) => {
    let user = asString(step(v, 'userName'));
    if (user === '') {
      const parts = asString(step(v, 'profileUrl')).split('/');
      user = parts[parts.length - 1];
    }
    const html =
      "<script>Y.use('squarespace-follow-buttons', function(Y) { Y.on('domready', function() { Y.Squarespace.FollowButtonUtils.renderAll(); }); });" +
      `</script><div class="squarespace-follow-button" data-username="${user}"></div>`;
    return widget(ctx, 'twitter-follow-button', v, args, html);
  },
};
