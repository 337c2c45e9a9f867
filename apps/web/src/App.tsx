import { MantineProvider } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { pageOf } from './pages';
import { AppLayout } from './shell/AppLayout';
import { ServicesProvider } from './shell/ServicesContext';
import type { Services } from './shell/services';
import { theme, themeVariables } from './theme';
import { installDropGuard } from './ui/dropGuard';
import { PagesProvider } from './view/pagesContext';

export function App({ services }: { services: Services }) {
  // One catch-all route: the server decides what each path shows; the router gives history,
  // client-side links and useBlocker for unsaved data.
  const router = useMemo(() => createBrowserRouter([{ path: '*', element: <AppLayout /> }]), []);
  useEffect(() => installDropGuard(), []);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={themeVariables}>
      <ServicesProvider services={services}>
        <PagesProvider pageOf={pageOf}>
          <RouterProvider router={router} />
        </PagesProvider>
      </ServicesProvider>
    </MantineProvider>
  );
}
