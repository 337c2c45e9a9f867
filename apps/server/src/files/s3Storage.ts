import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FileStorage } from './storage.js';

// S3-compatible storage (AWS S3, MinIO, Ceph, R2 …). Browsers upload straight to it through a
// presigned PUT; the server inspects what arrived (size and first bytes) before anyone may use it.

export interface S3Settings {
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
}

const UPLOAD_URL_SECONDS = 15 * 60;

export function createS3Storage(settings: S3Settings): FileStorage {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  });
  const Bucket = settings.bucket;
  return {
    async write(key, body) {
      await new Upload({ client, params: { Bucket, Key: key, Body: body } }).done();
    },
    async open(key) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      return object.Body as Readable;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async presignUpload({ key, contentType, size, publicRead }) {
      const command = new PutObjectCommand({
        Bucket,
        Key: key,
        ContentType: contentType,
        ContentLength: size,
        ACL: publicRead ? 'public-read' : undefined,
      });
      const url = await getSignedUrl(client, command, { expiresIn: UPLOAD_URL_SECONDS });
      const headers: Record<string, string> = { 'content-type': contentType };
      if (publicRead) headers['x-amz-acl'] = 'public-read';
      return { url, headers };
    },
    async inspect(key, bytes) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket, Key: key, Range: `bytes=0-${bytes - 1}` }),
        );
        const range = object.ContentRange
          ? Number(object.ContentRange.split('/')[1])
          : Number(object.ContentLength);
        const chunks: Buffer[] = [];
        for await (const chunk of object.Body as Readable) chunks.push(Buffer.from(chunk));
        return { size: range, head: Buffer.concat(chunks) };
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
  };
}
