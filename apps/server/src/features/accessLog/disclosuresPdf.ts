import { BUSINESS_TIME_ZONE } from '@dossier/core';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { DisclosureRow } from './repository.js';

// The accounting of disclosures as the person who asked for it gets it: one A4 list, continued on
// further pages, of what left Dossier about them, when, how and to whom. The standard fonts write
// Windows-1252 only, so anything outside it prints as '?'.

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const GREY = rgb(0.4, 0.4, 0.4);
const HOW: Record<DisclosureRow['how'], string> = { download: 'Download', api: 'API', mail: 'Mail' };
const COLUMNS = [
  { x: 0, width: 100 },
  { x: 104, width: 50 },
  { x: 158, width: 150 },
  { x: 312, width: 90 },
  { x: 406, width: 93 },
];

const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

const when = (d: Date) =>
  new Intl.DateTimeFormat('en-AU', {
    timeZone: BUSINESS_TIME_ZONE,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(d);

export async function renderDisclosuresPdf(input: {
  applicant: { name: string; dateOfBirth: string | null };
  rows: DisclosureRow[];
  now: Date;
}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Accounting of disclosures: ${printable(input.applicant.name)}`);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page = pdf.addPage(A4);
  let y = A4[1] - MARGIN;
  const line = (text: string, options: { size?: number; bold?: boolean; grey?: boolean } = {}) => {
    const size = options.size ?? 10;
    page.drawText(printable(text), {
      x: MARGIN,
      y,
      size,
      font: options.bold ? bold : font,
      ...(options.grey && { color: GREY }),
    });
    y -= size + 6;
  };
  const fit = (text: string, width: number, size: number) => {
    let t = printable(text);
    while (t.length > 1 && font.widthOfTextAtSize(t, size) > width) t = t.slice(0, -1);
    return t;
  };
  const row = (cells: string[], isHeader = false) => {
    if (y < MARGIN + 20) {
      page = pdf.addPage(A4);
      y = A4[1] - MARGIN;
    }
    cells.forEach((cell, i) => {
      const column = COLUMNS[i];
      if (!column) return;
      page.drawText(fit(cell, column.width, 9), {
        x: MARGIN + column.x,
        y,
        size: 9,
        font: isHeader ? bold : font,
      });
    });
    y -= 15;
  };

  line('Accounting of disclosures', { size: 16, bold: true });
  line(
    `${input.applicant.name}${input.applicant.dateOfBirth ? `, born ${input.applicant.dateOfBirth}` : ''}`,
    {
      size: 12,
    },
  );
  line(`Prepared ${when(input.now)}. Results and files that left Dossier: downloads by the sender,`, {
    grey: true,
  });
  line('reads through the API, and mail sent with attachments.', { grey: true });
  y -= 8;
  row(['When', 'How', 'To whom', 'Request', 'What'], true);
  if (input.rows.length === 0) line('Nothing about this person has left Dossier.');
  for (const r of input.rows) row([when(r.at), HOW[r.how], r.to_whom ?? '', r.request_number, r.what ?? '']);
  return pdf.save();
}
