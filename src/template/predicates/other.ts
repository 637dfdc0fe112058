/** Commerce, social, slide and not-implemented predicates. */
import type { Context } from '../context';
import { Msg } from '../errors';
import type { PredicateFn } from '../types';
import { asNumber, isTruthy, step } from '../util';
import { hasVariants, hasVariedPrices, isOnSale, isSoldOut } from '../formatters/commerce-util';

const SLICE_TYPES: Record<string, number> = {
  heading: 1,
  body: 3,
  image: 4,
  gallery: 5,
  video: 6,
  'social-icons': 7,
  buttons: 8,
  navigation: 9,
  'custom-form': 10,
  newsletter: 11,
  album: 12,
  map: 13,
  logo: 14,
  action: 15,
  form: 16,
  lock: 17,
  password: 18,
  twitter: 19,
};

export const COMMERCE_PREDICATES: Record<string, PredicateFn> = {
  'has-variants?': (_a, ctx: Context) => hasVariants(ctx.frame.node),
  'on-sale?': (_a, ctx: Context) => isOnSale(ctx.frame.node),
  'sold-out?': (_a, ctx: Context) => isSoldOut(ctx.frame.node),
  'varied-prices?': (_a, ctx: Context) => hasVariedPrices(ctx.frame.node),
};

const P_WEBSITE_SETTINGS = ['websiteSettings'];

export const SOCIAL_PREDICATES: Record<string, PredicateFn> = {
  'comments?': (_a, ctx: Context) => {
    const settings = ctx.resolve(P_WEBSITE_SETTINGS);
    const n = ctx.frame.node;
    let on = asNumber(step(n, 'commentState')) === 1 || asNumber(step(n, 'publicCommentCount')) > 0;
    if (settings !== undefined && !isTruthy(step(settings, 'commentsEnabled'))) on = false;
    return on;
  },
  'disqus?': (_a, ctx: Context) => isTruthy(ctx.resolve(['websiteSettings', 'disqusShortName'])),
};

export const SLIDE_PREDICATES: Record<string, PredicateFn> = {
  'current-type?': (args, ctx: Context) => {
    const expected = asNumber(step(ctx.frame.node, 'currentType')) | 0;
    const code = Object.prototype.hasOwnProperty.call(SLICE_TYPES, args[0]) ? SLICE_TYPES[args[0]] : undefined;
    return code !== undefined && code === expected;
  },
};

export const MISSING_PREDICATES: Record<string, PredicateFn> = {
  'units-metric?': (_a, ctx: Context, inst) => {
    ctx.error('engine', Msg.notImplemented('units-metric?'), inst);
    return false;
  },
};
