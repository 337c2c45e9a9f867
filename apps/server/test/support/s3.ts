import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createTestContext, type TestContext } from '../helpers.js';

// An S3-compatible service on loopback (s3rver) with the bucket Dossier uses, and a test context
// whose files go there.

export interface S3World {
  t: TestContext;
  /** The bucket's address: s3rver answers unsigned reads of its objects there. */
  bucketUrl: string;
  /** Where s3rver keeps the objects (one folder per bucket). */
  dir: string;
  close(): Promise<void>;
}

export async function startS3World(prefix: string): Promise<S3World> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'dossier-files', configs: [] }],
  });
  const { port } = (await s3.run()) as { port: number };
  const t = await createTestContext({
    files: {
      dir: path.join(dir, 'unused'),
      maxBytes: 1024 * 1024,
      s3: {
        bucket: 'dossier-files',
        endpoint: `http://127.0.0.1:${port}`,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      },
    },
  });
  return {
    t,
    bucketUrl: `http://127.0.0.1:${port}/dossier-files`,
    dir,
    close: async () => {
      await t.close();
      await s3.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
