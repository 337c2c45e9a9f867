import type { View } from './userState.js';

// Download files: a quality-assured result as the list shows it, and the page's view.

export interface DownloadFileItem {
  resultId: string;
  requestNumber: string;
  subject: string;
  file: { key: string; name: string | null };
  itemTypes: { id: string; name: string }[];
  qualityAssuredAt: string | null;
  qualityAssuredBy: string | null;
  qualityAssuredByDisplayName: string | null;
  downloadedAt: string | null;
  downloadedBy: string | null;
  downloadedByDisplayName: string | null;
}

export interface DownloadFilesView extends View {
  $type: 'downloadFiles';
  maxNumberResultsFetched: number;
  results: DownloadFileItem[];
}
