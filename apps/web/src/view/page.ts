import type { View } from '@dossier/core';
import type { ComponentType } from 'react';

export interface PageProps<V extends View = View> {
  view: V;
}

export type PageComponent = ComponentType<PageProps>;

/** Registers a page typed to its own view shape; the registry picks it by the view's $type. */
export function definePage<V extends View>(component: ComponentType<PageProps<V>>): PageComponent {
  return component as unknown as PageComponent;
}
