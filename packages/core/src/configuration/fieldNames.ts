// A failed save names its fields in words ("Field set 1, id"), not as the paths the editors key
// their errors by ("data.fieldSets.0.id"): the banner is read by people.

/** Words of a camelCase name, lowercase: 'maxLength' -> 'max length'. */
function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
}

/** The singular of a list name before its item number: 'fieldSets' -> 'field set'. */
function singular(name: string): string {
  const w = words(name);
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** 'data.fieldSets.0.fields.2.maxLength' -> 'Field set 1, field 3, max length'. */
export function fieldPathInWords(path: string): string {
  const parts = path.split('.').filter((p, i) => !(i === 0 && p === 'data'));
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    const next = parts[i + 1];
    if (next !== undefined && /^\d+$/.test(next)) {
      out.push(`${singular(part)} ${Number(next) + 1}`);
      i++;
    } else if (/^\d+$/.test(part)) out.push(`item ${Number(part) + 1}`);
    else out.push(words(part));
  }
  const text = out.join(', ') || 'the entry';
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The banner of a refused save: each field in words with its message. */
export function invalidFieldsMessage(fields: Record<string, string>): string {
  const list = Object.entries(fields).map(([path, message]) => `${fieldPathInWords(path)}: ${message}`);
  return `Check ${list.length === 1 ? 'this field' : 'these fields'}. ${list.join(' ')}`;
}
