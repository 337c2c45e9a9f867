import fs from 'node:fs';
import path from 'node:path';

/** Where each security suite leaves its one-line summary for `npm run test:security` to print. */
export const SUMMARY_DIR = path.resolve(import.meta.dirname, '..', '..', '..', '..', '.tmp', 'security');

export function writeSummary(suite: string, line: string): void {
  fs.mkdirSync(SUMMARY_DIR, { recursive: true });
  fs.writeFileSync(path.join(SUMMARY_DIR, `${suite}.txt`), `${line}\n`);
}
