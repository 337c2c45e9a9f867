// The shared input rules (docs/ARCHITECTURE.md, "Shared input rules, applied once"). Each is a pure function used by the browser inputs
// and repeated by the server before anything is stored.

import { dateInTimeZone } from './businessDays.js';
import { MAX_DECIMAL_PRECISION, MIN_DECIMAL_PRECISION } from './configuration/enums.js';
import { dateTimeFormat } from './intlFormats.js';
import { zoneOffset } from './timeZone.js';

const IDENTIFIER = /^[a-z][a-zA-Z0-9]*$/;

/** The answer on a field holding a control character it may not hold. */
export const CONTROL_CHARACTER_MESSAGE = 'Contains characters that are not allowed.';

/**
 * True when `text` holds a C0 control character (U+0000–U+001F) no keyboard types into it. Text of
 * several lines may hold tab, line feed and carriage return. A single-line value may not: a subject
 * or an external reference ends up in a mail header or a role string, where a CR LF would start a
 * new header or split the value.
 */
export function hasControlCharacter(text: string, options: { singleLine?: boolean } = {}): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && (options.singleLine || (c !== 0x09 && c !== 0x0a && c !== 0x0d))) return true;
  }
  return false;
}

/** Lowercase letter first, then letters and digits; colon-separated identifiers when allowed. */
export function isIdentifier(value: string, options: { allowColon?: boolean | undefined } = {}): boolean {
  if (options.allowColon) return value.split(':').every((part) => IDENTIFIER.test(part));
  return IDENTIFIER.test(value);
}

/** The id of a nested entry: the optional prefix plus a colon, then the id. */
export function nestedId(prefix: string | undefined, id: string): string {
  return prefix ? `${prefix}:${id}` : id;
}

function clamp(value: number, min?: number, max?: number): number {
  let out = value;
  if (min !== undefined && out < min) out = min;
  if (max !== undefined && out > max) out = max;
  return out;
}

/** Digits only; clamped to min and max when given. Anything else is undefined. */
export function parseIntegerInput(
  text: string,
  options: { min?: number | undefined; max?: number | undefined } = {},
): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  return clamp(Number.parseInt(trimmed, 10), options.min, options.max);
}

export const DEFAULT_DECIMAL_PRECISION = 2;

/** A precision the decimal input takes: a whole number 0 to 5; anything else is the default, 2. */
export function decimalPrecisionOf(precision: number | undefined): number {
  if (
    precision === undefined ||
    !Number.isInteger(precision) ||
    precision < MIN_DECIMAL_PRECISION ||
    precision > MAX_DECIMAL_PRECISION
  )
    return DEFAULT_DECIMAL_PRECISION;
  return precision;
}

/**
 * Digits with at most `precision` decimals (2 unless given; smart form answers take their
 * question's 0 to 5, and 0 means digits only); clamped to min and max when given.
 */
export function parseDecimalInput(
  text: string,
  options: { min?: number | undefined; max?: number | undefined; precision?: number | undefined } = {},
): number | undefined {
  const trimmed = text.trim();
  const precision = decimalPrecisionOf(options.precision);
  const pattern = precision === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${precision}})?$`);
  if (!pattern.test(trimmed)) return undefined;
  return clamp(Number.parseFloat(trimmed), options.min, options.max);
}

/** What the prefix input keeps of a keystroke: uppercased, at most 3 characters. */
export function normalizeRequestNumberPrefix(text: string): string {
  return text.toUpperCase().slice(0, 3);
}

export function isRequestNumberPrefix(value: string): boolean {
  return /^[A-Z]{3}$/.test(value);
}

/**
 * A URL must name its protocol; webhooks allow only https. Credentials are stripped. An invalid URL
 * becomes the empty string.
 */
export function normalizeUrl(text: string, options: { httpsOnly?: boolean | undefined } = {}): string {
  const trimmed = text.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return '';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return '';
  }
  if (options.httpsOnly ? url.protocol !== 'https:' : !['https:', 'http:'].includes(url.protocol)) return '';
  if (!url.hostname) return '';
  url.username = '';
  url.password = '';
  return url.toString();
}

export type UrlProblem = 'noProtocol' | 'noSlashes' | 'httpsOnly' | 'protocol' | 'invalid';

/**
 * Why a typed URL is not one (undefined when normalizeUrl keeps it), so an input can say it rather
 * than blank the field: 'https:example.com' lacks the two slashes after the protocol.
 */
export function urlProblem(
  text: string,
  options: { httpsOnly?: boolean | undefined } = {},
): UrlProblem | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || normalizeUrl(trimmed, options) !== '') return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  const rest = scheme ? trimmed.slice(scheme.length + 1) : '';
  // 'example.com:8080' and 'localhost:3000' are a host and a port, not a protocol.
  if (!scheme || scheme.includes('.') || /^\d/.test(rest)) return 'noProtocol';
  if (scheme !== 'http' && scheme !== 'https') return 'protocol';
  if (options.httpsOnly && scheme === 'http') return 'httpsOnly';
  if (!rest.startsWith('//')) return 'noSlashes';
  return 'invalid';
}

const ISO_TIME = /^PT(?:(\d{1,2})H)?(?:(\d{1,2})M)?(?:(\d{1,2})S)?$/;

/** A time of day stored as an ISO duration, PT{h}H{m}M with optional seconds. */
export function parseIsoTimeOfDay(
  value: string,
): { hours: number; minutes: number; seconds: number } | undefined {
  const match = ISO_TIME.exec(value);
  if (!match || value === 'PT') return undefined;
  const part = (v: string | undefined) => (v ? Number(v) : 0);
  const [hours, minutes, seconds] = [part(match[1]), part(match[2]), part(match[3])];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return { hours, minutes, seconds };
}

export function toIsoTimeOfDay(time: { hours: number; minutes: number; seconds?: number }): string {
  const seconds = time.seconds ? `${time.seconds}S` : '';
  return `PT${time.hours}H${time.minutes}M${seconds}`;
}

/**
 * Reads "9:30", "09:30:15", "17:05" or the locale's "2:30 pm" as an ISO time of day; undefined
 * when it is none. The 12-hour form is read so the shown value is also a valid typed one.
 */
export function timeInputToIso(text: string): string | undefined {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?\s*m\.?)?$/i.exec(text.trim());
  if (!match) return undefined;
  let hours = Number(match[1]);
  const half = match[4]?.toLowerCase();
  if (half) {
    if (hours < 1 || hours > 12) return undefined;
    hours = (hours % 12) + (half === 'p' ? 12 : 0);
  }
  const time = { hours, minutes: Number(match[2]), seconds: match[3] ? Number(match[3]) : 0 };
  if (time.hours > 23 || time.minutes > 59 || time.seconds > 59) return undefined;
  return toIsoTimeOfDay(time);
}

/**
 * The instant on the local date of `instant` (in `timeZone`) at the ISO time of day: a task due
 * on a day falls due at the configured time of that day. An invalid time keeps `instant`.
 */
export function atTimeOfDay(instant: Date, isoTime: string, timeZone = 'Australia/Sydney'): Date {
  const time = parseIsoTimeOfDay(isoTime);
  if (!time) return instant;
  const [year = 0, month = 1, day = 1] = dateInTimeZone(instant, timeZone).split('-').map(Number);
  const wall = Date.UTC(year, month - 1, day, time.hours, time.minutes, time.seconds);
  // The offset at the wall time read as UTC, then again at the first guess (a DST change between).
  const first = wall - zoneOffset(new Date(wall), timeZone);
  return new Date(wall - zoneOffset(new Date(first), timeZone));
}

/** Shows an ISO time of day in the locale's time format. */
export function formatIsoTimeOfDay(value: string, locale = 'en-AU'): string {
  const time = parseIsoTimeOfDay(value);
  if (!time) return '';
  const date = new Date(Date.UTC(2000, 0, 1, time.hours, time.minutes, time.seconds));
  return dateTimeFormat(locale, {
    hour: 'numeric',
    minute: '2-digit',
    second: time.seconds ? '2-digit' : undefined,
    timeZone: 'UTC',
  }).format(date);
}

/** Multi-line inputs bound to arrays: one item per line, trimmed, empty lines dropped. */
export function parseLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** Address parsing: commas removed, lines trimmed, empty lines dropped. */
export function parseAddressLines(text: string): string[] {
  // A comma separates words as a space does: "Sydney,NSW" and "Sydney , NSW" both read "Sydney NSW".
  return parseLines(text.replace(/[ \t]*,[ \t]*/g, ' ').replace(/[ \t]{2,}/g, ' '));
}

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** One holiday date, YYYY-MM-DD (two-digit years get 2000 added); undefined when invalid. */
export function parseHolidayDate(line: string): string | undefined {
  const match = /^(\d{2}|\d{4})-(\d{1,2})-(\d{1,2})$/.exec(line.trim());
  if (!match) return undefined;
  const [, yearText = '', monthText, dayText] = match;
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  if (!isRealDate(year, month, day)) return undefined;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Public holiday lines: invalid lines dropped, duplicates removed, the rest sorted. */
export function parseHolidayLines(text: string | string[]): string[] {
  const lines = Array.isArray(text) ? text : text.split(/\r?\n/);
  const dates = new Set<string>();
  for (const line of lines) {
    const date = parseHolidayDate(line);
    if (date) dates.add(date);
  }
  return [...dates].sort();
}

export type TextSegment = { text: string } | { text: string; href: string };

const LINK =
  /(https:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]|mailto:[^\s<>"@]+@[^\s<>"]+[^\s<>".,;:!?)\]]|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)/g;

/** Splits text into plain parts and links: https URLs and mailto (or bare e-mail) addresses. */
export function detectLinks(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const index = match.index ?? 0;
    if (index > last) segments.push({ text: text.slice(last, index) });
    const value = match[0];
    const href = value.startsWith('https://') || value.startsWith('mailto:') ? value : `mailto:${value}`;
    segments.push({ text: value, href });
    last = index + value.length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

export const MENTION_MIN_CHARS = 2;

/** The mention being typed before the caret: '@' and at least 2 characters; undefined otherwise. */
export function mentionQueryAt(text: string, caret = text.length): string | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  const query = match?.[2];
  if (query === undefined || query.length < MENTION_MIN_CHARS) return undefined;
  return query;
}
