import { createContext, type ReactNode, useContext } from 'react';
import type { PageComponent } from './page';

// The page of each view $type is registered at the top (pages.ts, given by App), so that view/
// stays below the features and imports none of them.
const PagesContext = createContext<((type: string) => PageComponent) | null>(null);

export function PagesProvider({
  pageOf,
  children,
}: {
  pageOf: (type: string) => PageComponent;
  children: ReactNode;
}) {
  return <PagesContext.Provider value={pageOf}>{children}</PagesContext.Provider>;
}

export function usePageOf(): (type: string) => PageComponent {
  const pageOf = useContext(PagesContext);
  if (!pageOf) throw new Error('usePageOf needs a PagesProvider');
  return pageOf;
}
