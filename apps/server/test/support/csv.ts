// A strict RFC 4180 reader for the tests: quoted fields with doubled quotes, commas and line breaks
// inside quotes, CRLF between records. Throws on anything malformed, so a broken file fails a test.
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
        if (i < text.length && text[i] !== ',' && text[i] !== '\r')
          throw new Error(`Text after a quote at ${i}`);
      } else {
        field += c;
        i++;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      i++;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else if (c === '\n' || c === '\r' || c === '"') {
      throw new Error(`Unexpected ${JSON.stringify(c)} at ${i}`);
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new Error('Unterminated quote');
  if (field !== '' || record.length > 0) throw new Error('The last record has no CRLF');
  return records;
}
