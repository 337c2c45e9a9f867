import { createUpload, openFile } from '../../../files/service.js';
import { HttpError, notFound } from '../../../http/errors.js';
import { sendDownload } from '../access.js';
import { announceUploadRoute, fileRoute } from '../contracts.js';
import { defineEndpoint } from '../endpoints.js';

// Files travel in two steps, as in the browser: announce the upload (name, type, size) and PUT the
// bytes to the signed URL answered, then name the key in a request, result or invoice. The same
// checks apply (no executables, the size limit, the content must match its type).

export const fileEndpoints = [
  defineEndpoint({
    route: announceUploadRoute,
    scope: 'fileWrite',
    tag: 'Files',
    summary: 'Announce a file upload',
    description:
      'Answers a key and a signed upload URL valid for 15 minutes: PUT the bytes there with the ' +
      'headers given (no Authorization needed), then use the key in another call.',
    status: 201,
    answers: 'Where to upload the bytes.',
    async handler({ body }, { deps, actor, baseUrl }) {
      const upload = await createUpload(deps.files, actor, { ...body, publicReadAccess: false });
      const uploadUrl = upload.uploadUrl.startsWith('/') ? `${baseUrl}${upload.uploadUrl}` : upload.uploadUrl;
      return { key: upload.key, uploadUrl, headers: upload.headers };
    },
  }),
  defineEndpoint({
    route: fileRoute,
    scope: 'fileRead',
    tag: 'Files',
    summary: 'Download a file',
    description:
      "A file of a request within the key's scope (its documents, results, invoices) or an upload of the key.",
    answers: 'The file.',
    download: true,
    async handler({ params }, { deps, actor, reply }) {
      try {
        return sendDownload(
          reply,
          await openFile(deps.files, actor, params.key, { address: reply.request.ip }),
        );
      } catch (error) {
        // Like a request outside the key's scope, its files are unknown to the key (404, not 403).
        if (error instanceof HttpError && error.status === 403) throw notFound('File not found.');
        throw error;
      }
    },
  }),
];
