import type { FileRef } from '@dossier/core';
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
  let target: { key: string; uploadUrl: string; headers: Record<string, string> };
  try {
    target = await api.post('/files', {
      name: file.name,
      contentType: file.type || 'application/octet-stream',
      contentLength: file.size,
      publicReadAccess: publicRead,
    });
  } catch (error) {
    throw new UploadError(file.name, error instanceof Error ? error.message : String(error));
  }
  const res = await fetch(target.uploadUrl, {
    method: 'PUT',
    headers: target.headers,
    body: file,
    credentials: 'same-origin',
  });
  if (res.status !== 200) {
    const body = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
    throw new UploadError(file.name, `${res.status}: ${body?.message ?? res.statusText}`);
  }
  return { key: target.key, name: file.name };
}
