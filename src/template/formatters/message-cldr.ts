/**
 * ICU-style messages through CLDR (@phensley/cldr's message formatter):
 * `{0}`, `{name}`, `{0 plural one {# item} other {# items}}` (commas allowed),
 * `selectordinal`, `select`, nested to any depth, plural categories by the
 * locale's CLDR rules on the exact decimal ('1.0' is not 'one' in English,
 * fr's 0 is 'one'), and formatted arguments: `{0 number}`, `{0 currency}`
 * (a money value; `style:name` and the `money` options), `{0 datetime}` (an
 * instant in the website's zone; the `datetime` options), `{0;1 datetime-interval}`
 * (two instants; the `datetime-interval` options).
 * One message formatter per (locale, zone), which caches parsed messages.
 */
import { DefaultMessageArgConverter, type MessageArg, type MessageFormatter } from '@phensley/cldr';
import { cldrFor } from '../cldr';
import { decimalString, formatCurrency, formatDecimal, moneyAmount, moneyParts, numberArgs } from './numbers';
import { formatDatetime, formatInterval } from './dates-cldr';

class Converter extends DefaultMessageArgConverter {
  override asString(arg: MessageArg | undefined): string {
    if (arg === undefined || arg === null) return '';
    // JSON objects and arrays print nothing; a CLDR Decimal (the `#` of a plural) prints its digits.
    if (typeof arg === 'object') return Object.getPrototypeOf(arg) === Object.prototype || Array.isArray(arg) ? '' : super.asString(arg);
    return String(arg);
  }
}
const converter = new Converter();

/** Options arrays from the message are new per call; parse them by their text. */
const optsKey = new Map<string, string[]>();
function stable(options: string[]): string[] {
  const k = options.join('\u0000');
  let s = optsKey.get(k);
  if (s === undefined) {
    if (optsKey.size > 1000) optsKey.clear();
    s = options.slice();
    optsKey.set(k, s);
  }
  return s;
}

function moneyText(locale: string, v: unknown, options: string[]): string {
  const m = moneyParts(v);
  const amount = m ? moneyAmount(m.value, m.code, m.decimal) : null;
  return m && amount !== null ? formatCurrency(locale, amount, m.code, numberArgs(stable(options), true)) : '';
}

const formatters = new Map<string, MessageFormatter>();

function formatterFor(locale: string, zone: string): MessageFormatter {
  const key = locale + '|' + zone;
  let f = formatters.get(key);
  if (f === undefined) {
    const cldr = cldrFor(locale);
    // A number argument: a money value gives its amount; anything else that is not a number counts as 0.
    const number = (args: MessageArg[], options: string[]) => {
      if (args.length === 0 || args[0] === undefined || args[0] === null || args[0] === '') return '';
      const m = moneyParts(args[0]);
      const s = (m ? decimalString(m.value) : decimalString(args[0])) ?? '0';
      return formatDecimal(locale, s, numberArgs(stable(options), false));
    };
    f = cldr.General.messageFormatter({
      converter,
      formatters: {
        number,
        decimal: number,
        currency: (args, options) => moneyText(locale, args[0], options),
        money: (args, options) => moneyText(locale, args[0], options),
        'datetime-interval': (args, options) => {
          const a = Number(args[0]);
          const b = Number(args[1]);
          return args.length > 1 && Number.isFinite(a) && Number.isFinite(b) ? formatInterval(locale, zone, a, b, stable(options)) : '';
        },
        datetime: (args, options) => {
          const n = typeof args[0] === 'number' ? args[0] : Number(args[0]);
          return Number.isFinite(n) ? formatDatetime(locale, zone, n, stable(options)) : '';
        },
      },
    });
    formatters.set(key, f);
  }
  return f;
}

/** Format a message with positional and named arguments in a locale and time zone. */
export function formatMessage(msg: string, positional: unknown[], named: Record<string, unknown>, locale: string, zone = 'UTC'): string {
  try {
    return formatterFor(locale, zone).format(msg, positional, named as Record<string, MessageArg>);
  } catch {
    return '';
  }
}
