import { z } from 'zod';
import { defineRoute } from './route.js';

// The file routes: announcing an upload (POST /files answers where to PUT the bytes), the signed
// upload target, and reading a stored file.

const fileKey = z.string().regex(/^[\w-]{10,64}$/);

export const uploadRequestSchema = z.object({
  name: z.string().trim().min(1, 'A file name is required.').max(255),
  contentType: z
    .string()
    .trim()
    .min(3)
    .max(200)
    .regex(/^[\w.+-]+\/[\w.+-]+/, 'Not a content type.'),
  contentLength: z.number().int().positive('The file is empty.'),
  publicReadAccess: z.boolean().default(false),
});

/** Where to PUT the bytes: our signed route, or an object store's signed URL, with its headers. */
export const uploadTargetSchema = z.object({
  key: z.string(),
  uploadUrl: z.string(),
  headers: z.record(z.string(), z.string()),
});
export type UploadTarget = z.infer<typeof uploadTargetSchema>;

export const createUploadRoute = defineRoute({
  method: 'POST',
  path: '/files',
  body: uploadRequestSchema,
  answer: uploadTargetSchema,
});

/** The signed upload target: the raw bytes are the body (no JSON), authorised by the signature. */
export const receiveUploadRoute = defineRoute({
  method: 'PUT',
  path: '/files/upload/:key',
  params: z.object({ key: fileKey }),
  query: z.object({ expires: z.coerce.number().int(), signature: z.string().min(10).max(100) }),
  answer: z.object({ key: z.string(), size: z.number() }),
});

/**
 * A stored file. Its answer is the file's bytes (or, opened in the browser and refused, a page),
 * not JSON: hence z.unknown(). `attachment` (any value) asks for a download, not inline.
 */
export const storedFileRoute = defineRoute({
  method: 'GET',
  path: '/files/:key',
  params: z.object({ key: fileKey }),
  query: z.object({ fileName: z.string().max(255).optional(), attachment: z.string().optional() }),
  answer: z.unknown(),
});
