import { z } from 'zod';
import { defineRoute } from './route.js';
import { defineView } from './view.js';

// Download files: the quality-assured results, with who downloaded each and when.

export const downloadFileItemSchema = z.object({
  resultId: z.string(),
  requestNumber: z.string(),
  subject: z.string(),
  file: z.object({ key: z.string(), name: z.string().nullable() }),
  itemTypes: z.array(z.object({ id: z.string(), name: z.string() })),
  qualityAssuredAt: z.string().nullable(),
  qualityAssuredBy: z.string().nullable(),
  qualityAssuredByDisplayName: z.string().nullable(),
  downloadedAt: z.string().nullable(),
  downloadedBy: z.string().nullable(),
  downloadedByDisplayName: z.string().nullable(),
});
export type DownloadFileItem = z.infer<typeof downloadFileItemSchema>;

export const downloadFilesViewSchema = defineView('downloadFiles', {
  maxNumberResultsFetched: z.number(),
  results: z.array(downloadFileItemSchema),
});
export type DownloadFilesView = z.infer<typeof downloadFilesViewSchema>;

/** The page and its Refresh: the list comes with the view. */
export const downloadFilesRoute = defineRoute({
  method: 'GET',
  path: '/results/download-files',
  answer: downloadFilesViewSchema,
});
