import { DEFAULT_LOCALE } from '@dossier/core';
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import enAu from './en-au.json';

export const resources = { 'en-au': { translation: enAu } } as const;

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
