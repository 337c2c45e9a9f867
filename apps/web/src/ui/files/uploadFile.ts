import { createUploadRoute, type FileRef, type UploadTarget } from '@dossier/core';
import type { Api } from '../../api';

/** An upload that failed: the message names the file, `reason` says why (shown as a tooltip). */
export class UploadError extends Error {
  constructor(
    readonly fileName: string,
    readonly reason: string,
  ) {
    super(`Error uploading file: ${fileName}`);
  }
}

/**
 * Uploads a file the way every file input does: POST /files announces it and answers where to PUT
 * the bytes (our signed route, or S3), then the PUT. Anything but 200 fails the upload.
 */
export async function uploadFile(api: Api, file: File, publicRead = false): Promise<FileRef> {
  let target: UploadTarget;
  try {
    target = await api.call(createUploadRoute, {
      body: {
        name: file.name,
        contentType: file.type || 'application/octet-stream',
        contentLength: file.size,
        publicReadAccess: publicRead,
      },
    });
  } catch (error) {
    throw new UploadError(file.name, messageOf(error));
  }
  try {
    await api.upload(target, file);
  } catch (error) {
    throw new UploadError(file.name, messageOf(error));
  }
  return { key: target.key, name: file.name };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
