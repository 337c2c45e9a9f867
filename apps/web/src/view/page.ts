import type { View } from '@dossier/core';
import { type ComponentType, lazy } from 'react';

export interface PageProps<V extends View = View> {
  view: V;
}

export type PageComponent = ComponentType<PageProps>;

/** Registers a page typed to its own view shape; the registry picks it by the view's $type. */
export function definePage<V extends View>(component: ComponentType<PageProps<V>>): PageComponent {
  // A page of view V is not a page of every View (props are contravariant): the registry makes it one
  // by handing each page only views of its own $type, which TypeScript cannot see.
  return component as unknown as PageComponent;
}

/**
 * A page whose code is loaded on first use: each page is its own chunk, so the first load carries
 * only the shell and the page shown. `pick` takes the component out of the module.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => PageComponent): PageComponent {
  return lazy(() => load().then((module) => ({ default: pick(module) })));
}
