// Countries are stored as ISO 3166-1 alpha-2 codes and chosen from a list that shows their names.
// The codes are those libphonenumber knows (it formats their phone numbers), less the two that are
// not countries of their own (Ascension Island and Tristan da Cunha share Saint Helena's ISO code).
// They are written out here rather than read from libphonenumber, whose metadata is most of its
// weight, so the pages that only name or choose a country do not load it (test/countries.test.ts
// holds the list to libphonenumber's). Names come from the runtime's Intl data, so the browser and
// the server read them alike.

export interface Country {
  code: string;
  name: string;
}

const CODES = (
  'AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS ' +
  'BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE ' +
  'EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN ' +
  'HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC ' +
  'LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ ' +
  'NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PR PS PT PW PY QA RE RO RS RU ' +
  'RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TG TH TJ TK TL TM TN ' +
  'TO TR TT TV TW TZ UA UG US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

function englishName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

let cached: readonly Country[] | undefined;

/** Every country, sorted by name. */
export function countries(): readonly Country[] {
  cached ??= CODES.map((code) => ({ code, name: englishName(code) })).sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
  );
  return cached;
}

export const COUNTRY_INVALID = 'Choose a country from the list.';

/** The name shown for a stored code; the code itself when it is none we know. */
export function countryName(code: string | null | undefined): string {
  if (!code) return '';
  return countries().find((c) => c.code === code.toUpperCase())?.name ?? code;
}

/**
 * A country as typed or chosen: its ISO code in any case ("au") or its English name ("Australia")
 * gives the code; empty gives null; anything else is refused with the message for the field.
 */
export function normalizeCountry(
  input: string | null | undefined,
): { ok: true; value: string | null } | { ok: false; message: string } {
  const text = (input ?? '').trim();
  if (text.length === 0) return { ok: true, value: null };
  const lower = text.toLowerCase();
  const found = countries().find((c) => c.code.toLowerCase() === lower || c.name.toLowerCase() === lower);
  return found ? { ok: true, value: found.code } : { ok: false, message: COUNTRY_INVALID };
}
