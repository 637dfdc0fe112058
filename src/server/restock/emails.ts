/** The back-in-stock email, in the sign-up's language (English when the language has no translation). */
import { DEFAULT_EMAIL_LOOK, type EmailLook } from '../../core/site-styles.js';
import { escapeHtml } from '../../core/html.js';

export interface RestockEmailInput {
  storeName: string;
  productTitle: string;
  /** 'Size: L, Color: Navy' (empty for a product without options). */
  variantText: string;
  productUrl: string;
  unsubscribeUrl: string;
  language?: string | null;
  /** The site's email look from its site styles (server/mail/email-look.ts); the default look when absent. */
  look?: EmailLook;
}

interface Strings {
  subject: string;
  intro: string;
  cta: string;
  why: string;
  unsubscribe: string;
}

const STRINGS: Record<string, Strings> = {
  en: {
    subject: '{product} is back in stock',
    intro: 'Good news: {item} is back in stock at {store}.',
    cta: 'Shop now',
    why: 'You are receiving this email because you asked {store} to tell you when this item was back in stock.',
    unsubscribe: 'Unsubscribe',
  },
  fr: {
    subject: '{product} est de nouveau en stock',
    intro: 'Bonne nouvelle : {item} est de nouveau en stock chez {store}.',
    cta: 'Acheter maintenant',
    why: 'Vous recevez cet e-mail parce que vous avez demandé à {store} de vous prévenir du retour de cet article.',
    unsubscribe: 'Se désabonner',
  },
  de: {
    subject: '{product} ist wieder auf Lager',
    intro: 'Gute Nachrichten: {item} ist bei {store} wieder auf Lager.',
    cta: 'Jetzt kaufen',
    why: 'Sie erhalten diese E-Mail, weil Sie {store} gebeten haben, Sie zu benachrichtigen, sobald dieser Artikel wieder verfügbar ist.',
    unsubscribe: 'Abmelden',
  },
  es: {
    subject: '{product} vuelve a estar disponible',
    intro: 'Buenas noticias: {item} vuelve a estar disponible en {store}.',
    cta: 'Comprar ahora',
    why: 'Recibes este correo porque pediste a {store} que te avisara cuando este artículo volviera a estar disponible.',
    unsubscribe: 'Darse de baja',
  },
};

/** The languages the email is written in. */
export const RESTOCK_EMAIL_LANGUAGES = Object.keys(STRINGS);

/** The translation for a language tag ('fr-CA' -> fr), else English. */
export function stringsFor(language?: string | null): Strings & { lang: string } {
  const base = (language ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  const lang = base in STRINGS ? base : 'en';
  return { ...STRINGS[lang]!, lang };
}

function fill(t: string, values: Record<string, string>): string {
  return t.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? values[k]! : m));
}

export function restockEmail(input: RestockEmailInput): { subject: string; text: string; html: string } {
  const look = input.look ?? DEFAULT_EMAIL_LOOK;
  const s = stringsFor(input.language);
  const item = input.variantText ? `${input.productTitle} (${input.variantText})` : input.productTitle;
  const plain = { product: input.productTitle, item, store: input.storeName };
  const html = {
    product: escapeHtml(input.productTitle),
    item: `<strong>${escapeHtml(item)}</strong>`,
    store: escapeHtml(input.storeName),
  };
  const subject = fill(s.subject, plain).replace(/[\r\n]+/g, ' ');
  const text = [
    fill(s.intro, plain),
    '',
    `${s.cta}: ${input.productUrl}`,
    '',
    '--',
    fill(s.why, plain),
    `${s.unsubscribe}: ${input.unsubscribeUrl}`,
    '',
  ].join('\n');
  const body =
    `<!doctype html><html lang="${s.lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="${look.body}">` +
    `<p>${fill(s.intro, html)}</p>` +
    `<p><a href="${escapeHtml(input.productUrl)}" style="${look.button}">${escapeHtml(s.cta)}</a></p>` +
    `<hr><p style="font-size:13px;color:#555">${fill(s.why, html)} <a href="${escapeHtml(input.unsubscribeUrl)}">${escapeHtml(s.unsubscribe)}</a></p>` +
    `</body></html>`;
  return { subject, text, html: body };
}
