import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The text of a PDF, as pdftotext reads it (what a recipient's reader shows). */
export async function pdfText(bytes: Buffer): Promise<string> {
  const child = promisify(execFile)('pdftotext', ['-layout', '-', '-']);
  child.child.stdin?.end(bytes);
  return (await child).stdout;
}
