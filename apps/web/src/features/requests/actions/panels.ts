import type { RequestView } from '@dossier/core';
import type { ComponentType } from 'react';

// The panel of each request action (spec 2, request actions). The request page shows a button for
// every action the server offers (view.actions) and, when one is chosen, its panel from this map.
// Each action feature adds its panel here.

export interface ActionPanelProps {
  view: RequestView;
  /** Called after the action committed; the page reloads its view. */
  onDone(): void;
  onCancel(): void;
}

export const actionPanels: Record<string, ComponentType<ActionPanelProps>> = {};
