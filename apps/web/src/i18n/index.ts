import { DEFAULT_LOCALE } from '@dossier/core';
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import enAu from './en-au.json';

// Each feature keeps its texts in en-au/<feature>.json under a key of its own, so features can be
// added without touching one shared file.
const featureCatalogues = import.meta.glob<{ default: Record<string, unknown> }>('./en-au/*.json', {
  eager: true,
});
const translation: Record<string, unknown> = { ...enAu };
for (const catalogue of Object.values(featureCatalogues)) Object.assign(translation, catalogue.default);

export const resources = { 'en-au': { translation } } as const;

/** Starts i18next with the locale of the initial state; unknown locales fall back to en-au. */
export function initI18n(locale: string | undefined): i18n {
  void i18next.use(initReactI18next).init({
    lng: (locale || DEFAULT_LOCALE).toLowerCase(),
    fallbackLng: DEFAULT_LOCALE,
    lowerCaseLng: true,
    resources,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return i18next;
}

export { i18next };
