import type { RequestView } from '@dossier/core';
import type { ComponentType } from 'react';
import { CorrespondenceList } from './correspondence/CorrespondenceList';
import { InvoiceList } from './invoices/InvoiceList';
import { ResultList } from './results/ResultList';

// The linked lists of the request page other than tasks (Results, Invoices, Correspondence): each
// feature that owns a list registers its component here, keyed by the list's name, so the page
// composes them without knowing their insides.

export interface RequestListProps {
  view: RequestView;
  /** True while an action panel or a part edit is open: edits in the list are disabled. */
  busy: boolean;
  onChanged(): void;
  /** Says when an edit in the list opens or closes: live changes wait meanwhile, as for a panel. */
  onEditing?(editing: boolean): void;
}

export const requestLists: Partial<
  Record<'results' | 'invoices' | 'correspondence', ComponentType<RequestListProps>>
> = {
  results: ResultList,
  invoices: InvoiceList,
  correspondence: CorrespondenceList,
};
