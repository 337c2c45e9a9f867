import type { RequestView } from '@dossier/core';

export interface PartProps {
  view: RequestView;
  /** The server allows the edit and no action or other edit is open. */
  canEdit: boolean;
  editing: boolean;
  onEdit(): void;
  /** Leaves edit mode (after Save or Cancel). */
  onClose(): void;
}
