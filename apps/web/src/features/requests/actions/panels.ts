import type { RequestView } from '@dossier/core';
import type { ComponentType } from 'react';
import { AddInvoicePanel } from '../invoices/AddInvoicePanel';
import { IssueRequestAgainPanel, IssueRequestPanel } from '../issueRequest/IssueRequestPanel';
import { AddResultPanel } from '../results/AddResultPanel';
import { AddNotePanel } from './AddNotePanel';
import { AddTaskPanel } from './AddTaskPanel';
import { CloseRequestPanel, ReOpenRequestPanel } from './CloseRequestPanel';
import { PlaceLegalHoldPanel, RemoveLegalHoldPanel } from './LegalHoldPanel';

// The panel of each request action (request actions). The request page shows a button for
// every action the server offers (view.actions) and, when one is chosen, its panel from this map.
// Each action feature adds its panel here.

export interface ActionPanelProps {
  view: RequestView;
  /** Called after the action committed; its answer, the request view, is already in place. */
  onDone(): void;
  onCancel(): void;
}

export const actionPanels: Record<string, ComponentType<ActionPanelProps>> = {
  issueRequest: IssueRequestPanel,
  issueRequestAgain: IssueRequestAgainPanel,
  addTask: AddTaskPanel,
  addNote: AddNotePanel,
  addResult: AddResultPanel,
  addInvoice: AddInvoicePanel,
  closeRequest: CloseRequestPanel,
  reOpenRequest: ReOpenRequestPanel,
  placeLegalHold: PlaceLegalHoldPanel,
  removeLegalHold: RemoveLegalHoldPanel,
};
