// Intl.DateTimeFormat objects, one per locale and options: building one costs far more than
// formatting with it (tens of microseconds: a fifth of the home page's CPU went into building the
// one that works out today's due window; a 10,000-row export formats every date). They are
// immutable, so sharing them is safe; the set of locales and options in use is small and fixed.

const formats = new Map<string, Intl.DateTimeFormat>();

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}
