/**
 * The instalment information popup's content. The provider's static modal HTML comes through our server
 * route (GET /api/instalments/modal/{locale}); when it cannot be loaded the popup shows the local version
 * below, which carries the same information, and the failure is only logged.
 */
import { DEFAULT_INSTALMENT_COUNT } from '../../core/constants.js';
import type { InstalmentBrand, InstalmentLocale } from '../../core/instalments.js';

export const INSTALMENT_MODAL_API = '/api/instalments/modal';
/** The browser gives up on our route after this long and shows the local version. */
export const MODAL_CLIENT_TIMEOUT_MS = 4000;

export const BRAND_NAMES: Readonly<Record<InstalmentBrand, string>> = Object.freeze({ afterpay: 'Afterpay', clearpay: 'Clearpay' });

const TERMS_URLS: Readonly<Record<string, string>> = Object.freeze({
  en_US: 'https://www.afterpay.com/en-US/installment-agreement',
  en_CA: 'https://www.afterpay.com/en-CA/instalment-agreement',
  fr_CA: 'https://www.afterpay.com/fr-CA/instalment-agreement',
  en_AU: 'https://www.afterpay.com/en-AU/terms-of-service',
  en_NZ: 'https://www.afterpay.com/en-NZ/terms-of-service',
  en_GB: 'https://www.clearpay.co.uk/en-GB/terms-of-service',
});

export interface ModalContent {
  source: 'provider' | 'local';
  html?: string;
}

export interface LocalInstalmentInfo {
  /** The document language of the content (e.g. 'fr-CA'). */
  lang: string;
  heading: string;
  stepsLabel: string;
  steps: string[];
  notes: string[];
  termsUrl: string;
  termsLabel: string;
}

/** The local version of the provider's information, in the locale's language. */
export function localInstalmentInfo(
  locale: InstalmentLocale,
  brand: InstalmentBrand,
  count: number = DEFAULT_INSTALMENT_COUNT,
): LocalInstalmentInfo {
  const name = BRAND_NAMES[brand];
  const lang = locale.replace('_', '-');
  const termsUrl = TERMS_URLS[locale] ?? TERMS_URLS.en_US!;
  if (locale === 'fr_CA') {
    return {
      lang,
      heading: 'Magasinez maintenant. Payez plus tard. Toujours sans intérêt.',
      stepsLabel: 'Comment ça marche',
      steps: [
        'Ajoutez vos articles préférés au panier.',
        `Sélectionnez ${name} au moment de payer.`,
        `Connectez-vous ou créez votre compte ${name}, avec une décision d'approbation instantanée.`,
        `Votre achat sera divisé en ${count} paiements, payables toutes les 2 semaines.`,
      ],
      notes: [
        `Pour faire une demande, il vous suffit d'avoir une carte de débit ou de crédit, d'avoir atteint l'âge de la majorité et de résider au Canada.`,
        'Des frais de retard et des critères d’admissibilité supplémentaires peuvent s’appliquer. Le premier paiement peut être exigé au moment de l’achat.',
      ],
      termsUrl,
      termsLabel: 'Conditions complètes',
    };
  }
  const favourites = locale === 'en_US' ? 'favorites' : 'favourites';
  const country: Record<string, string> = {
    en_US: 'the United States',
    en_CA: 'Canada',
    en_AU: 'Australia',
    en_NZ: 'New Zealand',
    en_GB: 'the United Kingdom',
  };
  return {
    lang,
    heading: 'Shop now. Pay later. Always interest-free.',
    stepsLabel: 'How it works',
    steps: [
      `Add your ${favourites} to cart.`,
      `Select ${name} at checkout.`,
      `Log into or create your ${name} account, with instant approval decision.`,
      `Your purchase will be split into ${count} payments, payable every 2 weeks.`,
    ],
    notes: [
      `All you need to apply is a debit or credit card, to be over 18 years of age, and to be a resident of ${country[locale] ?? 'a supported country'}.`,
      'Late fees and additional eligibility criteria may apply. The first payment may be due at the time of purchase.',
    ],
    termsUrl,
    termsLabel: 'Full terms',
  };
}

const loaded = new Map<string, Promise<ModalContent>>();

/**
 * The provider's modal for a locale through our route; { source: 'local' } when it cannot be loaded (the
 * failure is only logged). Asked once per page and locale.
 */
export function loadInstalmentModal(locale: InstalmentLocale, fetchFn: typeof fetch = fetch): Promise<ModalContent> {
  let p = loaded.get(locale);
  if (!p) {
    p = (async (): Promise<ModalContent> => {
      try {
        const res = await fetchFn(`${INSTALMENT_MODAL_API}/${encodeURIComponent(locale)}`, {
          credentials: 'same-origin',
          signal: AbortSignal.timeout(MODAL_CLIENT_TIMEOUT_MS),
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = (await res.json()) as { source?: string; html?: unknown };
        if (body.source === 'provider' && typeof body.html === 'string' && body.html.trim()) return { source: 'provider', html: body.html };
        return { source: 'local' };
      } catch (err) {
        console.info(
          'The instalment information could not be loaded; showing the local version.',
          err instanceof Error ? err.message : err,
        );
        loaded.delete(locale);
        return { source: 'local' };
      }
    })();
    loaded.set(locale, p);
  }
  return p;
}
