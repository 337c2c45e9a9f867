import type { ContentLine, SmartFormQuestion } from '@dossier/core';
import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

// Renders a smart form (a questionnaire) to a PDF to be filled in by hand: numbered questions with
// their nesting, an answer area per answer type (lines, yes/no boxes, option boxes, date boxes,
// tables, signature), conditions as notes, the logos and the header and footer texts.
// The same layout prints a request's answered content (writeContentLines) in the request letter, so
// the recipient reads the questions as the form numbers and indents them, with the answers given.

export interface SmartFormPdfInput {
  title: string;
  questions: SmartFormQuestion[];
  headerLines: string[];
  footerLines: string[];
  logos: Uint8Array[];
  /** Names of the choices of each option list, by option list id. */
  options: Record<string, string[]>;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const GREY = rgb(0.45, 0.45, 0.45);
const LINE = rgb(0.6, 0.6, 0.6);

/** Standard fonts encode WinAnsi only: anything else is shown as '?'. */
function printable(text: string): string {
  return text.replace(
    /[^\x20-\x7e\u00a0-\u00ff\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u2022\u20ac]/g,
    '?',
  );
}

function plainLines(richText: unknown): string[] {
  const lines: string[] = [];
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; text?: string; content?: unknown[] };
    if (n.type === 'paragraph' || n.type === 'heading') {
      lines.push((n.content ?? []).map((c) => (c as { text?: string }).text ?? '').join(''));
      return;
    }
    for (const child of n.content ?? []) visit(child);
  };
  visit(richText);
  return lines.filter((l) => l.trim());
}

/** Where a writer continues on a page another writer has begun (the request letter). */
export interface WriterStart {
  page: PDFPage;
  y: number;
  margin: number;
}

export class Writer {
  page!: PDFPage;
  y = 0;
  readonly margin: number;
  constructor(
    readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    readonly italic: PDFFont,
    readonly footer: string[],
    start?: WriterStart,
  ) {
    this.margin = start?.margin ?? MARGIN;
    if (start) {
      this.page = start.page;
      this.y = start.y;
    } else this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - this.margin;
    const pageNo = this.doc.getPageCount();
    const text = printable([...this.footer, `Page ${pageNo}`].join('   '));
    this.page.drawText(text, { x: this.margin, y: 25, size: 8, font: this.font, color: GREY });
  }

  ensure(height: number): void {
    if (this.y - height < this.margin) this.newPage();
  }

  wrap(text: string, width: number, font: PDFFont, size: number): string[] {
    const out: string[] = [];
    for (const paragraph of printable(text).split('\n')) {
      let line = '';
      for (const word of paragraph.split(/\s+/)) {
        const next = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(next, size) > width && line) {
          out.push(line);
          line = word;
        } else line = next;
      }
      out.push(line);
    }
    return out;
  }

  text(
    text: string,
    x: number,
    opts: { size?: number; font?: PDFFont; color?: ReturnType<typeof rgb> } = {},
  ): void {
    const size = opts.size ?? 10;
    const font = opts.font ?? this.font;
    for (const line of this.wrap(text, A4[0] - this.margin - x, font, size)) {
      this.ensure(size + 4);
      this.page.drawText(line, {
        x,
        y: this.y - size,
        size,
        font,
        ...(opts.color === undefined ? {} : { color: opts.color }),
      });
      this.y -= size + 4;
    }
  }

  rule(x: number, width = A4[0] - this.margin - x): void {
    this.ensure(20);
    this.y -= 18;
    this.page.drawLine({
      start: { x, y: this.y },
      end: { x: x + width, y: this.y },
      thickness: 0.5,
      color: LINE,
    });
  }

  box(x: number, label: string): number {
    this.page.drawRectangle({ x, y: this.y - 10, width: 9, height: 9, borderColor: LINE, borderWidth: 0.8 });
    this.page.drawText(printable(label), { x: x + 13, y: this.y - 9, size: 9, font: this.font });
    return x + 13 + this.font.widthOfTextAtSize(printable(label), 9) + 16;
  }
}

const CONDITION_NOTES: Record<string, string> = {
  parentIsYes: 'Answer only if the answer above is Yes.',
  parentIsNo: 'Answer only if the answer above is No.',
  anySiblingIsYes: 'Answer only if any related answer is Yes.',
  anySiblingIsNo: 'Answer only if any related answer is No.',
};

function answerArea(w: Writer, q: SmartFormQuestion, x: number, options: Record<string, string[]>): void {
  switch (q.answerType) {
    case 'yesOrNo': {
      w.ensure(18);
      w.y -= 4;
      const next = w.box(x, 'Yes');
      w.box(next, 'No');
      w.y -= 14;
      break;
    }
    case 'option': {
      const choices = options[q.optionRange ?? ''] ?? [];
      for (const choice of choices.length ? choices : ['(options)']) {
        w.ensure(16);
        w.box(x, choice);
        w.y -= 14;
      }
      break;
    }
    case 'yearMonthAndDate':
      w.ensure(20);
      w.y -= 4;
      w.page.drawText('DD  /  MM  /  YYYY', { x, y: w.y - 9, size: 9, font: w.font, color: GREY });
      w.rule(x, 160);
      break;
    case 'decimalNumber':
      w.rule(x, 160);
      w.text(`(a number${q.decimalPrecision ? ` with up to ${q.decimalPrecision} decimals` : ''})`, x, {
        size: 8,
        color: GREY,
      });
      break;
    case 'signature':
      w.y -= 20;
      w.rule(x, 220);
      w.text('Signature', x, { size: 8, color: GREY });
      w.rule(x, 120);
      w.text('Date', x, { size: 8, color: GREY });
      break;
    case 'table': {
      const cols = q.tableColumns.length ? q.tableColumns : [{ name: '' }];
      const width = (A4[0] - w.margin - x) / cols.length;
      const rows = q.linesOnPdf && q.linesOnPdf > 0 ? q.linesOnPdf : 4;
      w.ensure(18 * (rows + 1) + 4);
      const top = w.y - 4;
      cols.forEach((c, i) => {
        w.page.drawText(printable(c.name).slice(0, 40), {
          x: x + i * width + 3,
          y: top - 12,
          size: 9,
          font: w.bold,
        });
      });
      for (let r = 0; r <= rows + 1; r++) {
        const y = top - r * 18;
        w.page.drawLine({
          start: { x, y },
          end: { x: x + width * cols.length, y },
          thickness: 0.5,
          color: LINE,
        });
      }
      for (let i = 0; i <= cols.length; i++) {
        const cx = x + i * width;
        w.page.drawLine({
          start: { x: cx, y: top },
          end: { x: cx, y: top - (rows + 1) * 18 },
          thickness: 0.5,
          color: LINE,
        });
      }
      w.y = top - (rows + 1) * 18 - 6;
      break;
    }
    default: {
      const lines =
        q.linesOnPdf && q.linesOnPdf > 0 ? q.linesOnPdf : q.answerType === 'freeTextMultiLine' ? 4 : 1;
      for (let i = 0; i < lines; i++) w.rule(x);
      w.y -= 4;
    }
  }
}

function writeQuestions(
  w: Writer,
  questions: SmartFormQuestion[],
  prefix: string,
  level: number,
  options: Record<string, string[]>,
) {
  questions.forEach((q, i) => {
    const number = `${prefix}${i + 1}`;
    const x = w.margin + level * 18;
    w.ensure(40);
    w.y -= 6;
    const lines = plainLines(q.richText);
    w.text(`${number}.  ${lines[0] ?? q.name}`, x, { font: w.bold });
    for (const line of lines.slice(1)) w.text(line, x + 18);
    if (q.condition)
      w.text(CONDITION_NOTES[q.condition] ?? '', x + 18, { size: 8, font: w.italic, color: GREY });
    answerArea(w, q, x + 18, options);
    if (q.answerType !== 'table') writeQuestions(w, q.nestedForm, `${number}.`, level + 1, options);
  });
}

/**
 * A request's content as lines of requestContentLines, laid out as the form above: headings in
 * bold, numbered questions indented by their nesting, each answer below its question where the form
 * has its answer area.
 */
export function writeContentLines(w: Writer, lines: ContentLine[]): void {
  for (const line of lines) {
    const x = w.margin + line.level * 18;
    if (line.kind === 'itemType' || line.kind === 'additionalQuestions') {
      w.ensure(50);
      w.y -= 10;
      w.text(line.label, w.margin, { size: 13, font: w.bold });
      continue;
    }
    w.ensure(40);
    w.y -= 6;
    w.text(line.number ? `${line.number}.  ${line.label}` : line.label, x, { font: w.bold });
    if (line.kind === 'fieldSet' || line.kind === 'additionalQuestion') continue;
    if (line.answer) w.text(line.answer, x + 18);
    else w.text('Not answered', x + 18, { size: 9, font: w.italic, color: GREY });
  }
}

async function embedImage(doc: PDFDocument, bytes: Uint8Array): Promise<PDFImage | undefined> {
  try {
    if (bytes[0] === 0x89 && bytes[1] === 0x50) return await doc.embedPng(bytes);
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return await doc.embedJpg(bytes);
  } catch {
    // A logo that cannot be read is left out.
  }
  return undefined;
}

export async function renderSmartFormPdf(input: SmartFormPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(printable(input.title));
  doc.setProducer('Dossier');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const italic = await doc.embedFont(StandardFonts.HelveticaOblique);
  const w = new Writer(doc, font, bold, italic, input.footerLines);
  let x = MARGIN;
  let logoHeight = 0;
  for (const bytes of input.logos) {
    const image = await embedImage(doc, bytes);
    if (!image) continue;
    const scaled = image.scaleToFit(140, 50);
    w.page.drawImage(image, { x, y: w.y - scaled.height, width: scaled.width, height: scaled.height });
    x += scaled.width + 16;
    logoHeight = Math.max(logoHeight, scaled.height);
  }
  w.y -= logoHeight ? logoHeight + 10 : 0;
  w.text(input.title, MARGIN, { size: 16, font: bold });
  for (const line of input.headerLines) w.text(line, MARGIN, { size: 9, color: GREY });
  w.y -= 8;
  writeQuestions(w, input.questions, '', 0, input.options);
  return doc.save();
}

export { plainLines };
