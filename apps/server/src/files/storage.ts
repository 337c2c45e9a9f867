import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Where file bytes live. Local disk is the default; the interface is what an S3-compatible store
// implements too (uploads then go to its presigned URLs instead of our upload route).

export interface FileStorage {
  /** Stores a stream under the key, replacing what was there. */
  write(key: string, body: Readable): Promise<void>;
  open(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
  /** Stores that take uploads directly (S3) answer where the browser PUTs the bytes. */
  presignUpload?(upload: {
    key: string;
    contentType: string;
    size: number;
    publicRead: boolean;
  }): Promise<{ url: string; headers: Record<string, string> }>;
  /** For direct uploads: the size and first bytes of what arrived, or undefined if nothing did. */
  inspect?(key: string, bytes: number): Promise<{ size: number; head: Buffer } | undefined>;
}

export function createLocalStorage(root: string): FileStorage {
  // Two levels of folders keep any one folder small at millions of files.
  const pathOf = (key: string) => path.join(root, key.slice(0, 2), key.slice(2, 4), key);
  return {
    async write(key, body) {
      const target = pathOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${process.pid}.part`;
      try {
        await pipeline(body, createWriteStream(temp));
        await fs.rename(temp, target);
      } finally {
        await fs.rm(temp, { force: true });
      }
    },
    async open(key) {
      const file = pathOf(key);
      await fs.access(file);
      return createReadStream(file);
    },
    async remove(key) {
      await fs.rm(pathOf(key), { force: true });
    },
  };
}
