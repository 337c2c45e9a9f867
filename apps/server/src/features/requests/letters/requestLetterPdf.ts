import { BUSINESS_TIME_ZONE, type ContentLine } from '@dossier/core';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { Writer as FormWriter, writeContentLines } from '../../configuration/index.js';

// The request letter (issueRequest): what the recipient receives by email or fax as a PDF,
// or what is printed and posted. One A4 letter, continued on further pages when the body is long:
// letterhead, date, recipient address, subject, the message body, then the request's particulars
// (request number, applicant) so the recipient can match its records, and what is asked: each item
// type with its questions and answers, fields and files, and the additional questions, laid out as
// the smart form PDF lays out its questions.

export interface RequestLetterInput {
  /** The sending organisation, e.g. the legal entity of the request's scope. */
  senderName: string;
  date: Date;
  recipientName: string;
  recipientContact?: string | null;
  recipientAddress?: string | null | undefined;
  subject: string;
  /** The message body as plain text; paragraphs separated by blank lines. */
  body: string;
  requestNumber: string;
  applicant: {
    name: string;
    dateOfBirth?: string | null | undefined;
    address?: string | null | undefined;
    reference?: string | null | undefined;
  };
  /** The request's content (requestContentLines of @dossier/core). */
  content: ContentLine[];
  /** The sender's additional instructions to the recipient. */
  instructions?: string | null | undefined;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const GREY = rgb(0.4, 0.4, 0.4);
const WIDTH = A4[0] - 2 * MARGIN;

const TYPOGRAPHIC: Record<string, string> = {
  '\u2013': '-',
  '\u2014': '-',
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2026': '...',
};

/** Standard fonts encode WinAnsi only: dashes and quotes become plain ones, anything else '?'. */
const printable = (text: string) =>
  text
    .replace(/\t/g, ' ')
    .replace(/[\u2013\u2014\u2018\u2019\u201c\u201d\u2026]/g, (c) => TYPOGRAPHIC[c] ?? c)
    .replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');

/** `1980-04-01` → `1 Apr 1980`; anything else as given. */
function formatDateOnly(value: string | null | undefined): string | null | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${value}T00:00:00Z`),
  );
}

/** Breaks a paragraph into lines that fit the width (a word longer than a line is cut). */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of printable(text).split(/ +/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  lines.push(line);
  return lines;
}

class Writer {
  page: PDFPage;
  y: number;
  constructor(
    private readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    private readonly footer: string,
  ) {
    this.page = this.newPage();
    this.y = A4[1] - MARGIN;
  }

  private newPage(): PDFPage {
    const page = this.doc.addPage(A4);
    page.drawText(printable(this.footer), {
      x: MARGIN,
      y: MARGIN / 2,
      size: 8,
      font: this.font,
      color: GREY,
    });
    return page;
  }

  private room(height: number) {
    if (this.y - height >= MARGIN) return;
    this.page = this.newPage();
    this.y = A4[1] - MARGIN;
  }

  line(text: string, options: { size?: number; bold?: boolean; grey?: boolean; x?: number } = {}) {
    const size = options.size ?? 11;
    this.room(size * 1.4);
    this.page.drawText(printable(text), {
      x: MARGIN + (options.x ?? 0),
      y: this.y - size,
      size,
      font: options.bold ? this.bold : this.font,
      color: options.grey ? GREY : rgb(0, 0, 0),
    });
    this.y -= size * 1.4;
  }

  paragraph(text: string, options: { size?: number; bold?: boolean; grey?: boolean; x?: number } = {}) {
    const size = options.size ?? 11;
    for (const raw of text.split('\n'))
      for (const l of wrapText(raw, options.bold ? this.bold : this.font, size, WIDTH - (options.x ?? 0)))
        this.line(l, options);
  }

  /** A grey label with its value beside it, the value wrapping in its own column. */
  labelled(label: string, value: string, column = 150) {
    const size = 11;
    const lines = value.split('\n').flatMap((raw) => wrapText(raw, this.font, size, WIDTH - column));
    lines.forEach((text, i) => {
      this.room(size * 1.4);
      if (i === 0)
        this.page.drawText(printable(label), {
          x: MARGIN,
          y: this.y - size,
          size,
          font: this.font,
          color: GREY,
        });
      this.page.drawText(text, { x: MARGIN + column, y: this.y - size, size, font: this.font });
      this.y -= size * 1.4;
    });
  }

  gap(points: number) {
    this.y -= points;
  }

  rule() {
    this.room(10);
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4[0] - MARGIN, y: this.y },
      thickness: 0.5,
      color: GREY,
    });
    this.y -= 10;
  }
}

export async function renderRequestLetterPdf(input: RequestLetterInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Request ${input.requestNumber}`);
  doc.setSubject(printable(input.subject));
  doc.setCreator('Dossier');
  doc.setCreationDate(input.date);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const w = new Writer(doc, font, bold, `Request ${input.requestNumber}`);

  // Letterhead.
  w.paragraph(input.senderName, { size: 18, bold: true });
  w.rule();
  w.gap(8);
  w.line(
    new Intl.DateTimeFormat('en-AU', { dateStyle: 'long', timeZone: BUSINESS_TIME_ZONE }).format(input.date),
  );
  w.gap(12);

  // Recipient address block.
  w.paragraph(input.recipientName, { bold: true });
  if (input.recipientContact) w.paragraph(`Attention: ${input.recipientContact}`);
  if (input.recipientAddress) w.paragraph(input.recipientAddress);
  w.gap(16);

  w.paragraph(`Re: ${input.subject}`, { size: 12, bold: true });
  w.gap(8);
  for (const para of input.body.split(/\n{2,}/)) {
    w.paragraph(para);
    w.gap(6);
  }
  w.gap(10);
  w.rule();

  // The particulars, so the recipient can find the records and quote the request number.
  const row = (label: string, value: string | null | undefined) => {
    if (value) w.labelled(label, value);
  };
  row('Request number', input.requestNumber);
  row('Applicant', input.applicant.name);
  row('Date of birth', formatDateOnly(input.applicant.dateOfBirth));
  row('Address', input.applicant.address);
  row('Reference', input.applicant.reference);
  if (input.content.length > 0) {
    w.gap(6);
    w.line('Items requested', { bold: true });
    const italic = await doc.embedFont(StandardFonts.HelveticaOblique);
    const form = new FormWriter(doc, font, bold, italic, [`Request ${input.requestNumber}`], {
      page: w.page,
      y: w.y,
      margin: MARGIN,
    });
    writeContentLines(form, input.content);
    w.page = form.page;
    w.y = form.y;
  }
  if (input.instructions) {
    w.gap(10);
    w.line('Additional instructions', { bold: true });
    for (const para of input.instructions.split(/\n{2,}/)) {
      w.paragraph(para);
      w.gap(4);
    }
  }
  return doc.save();
}
