import { DEFAULT_LOCALE } from '@dossier/core';
import { i18next } from '../../i18n';
import texts from './texts.json';

// The recipient's page's texts come with its own chunk, not with the first load of every page:
// only recipients open it, and the first load has a budget (scripts/checkBundle.mjs).
i18next.addResourceBundle(DEFAULT_LOCALE, 'translation', texts, true, false);
