import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initI18n } from './i18n';
import { fetchInitialState, readEmbeddedInitialState } from './initialState';
import { createServices } from './shell/services';

async function start(): Promise<void> {
  const path = `${window.location.pathname}${window.location.search}`;
  // The server embeds the initial state; fetching it is a development fallback only.
  const initial = readEmbeddedInitialState() ?? (await fetchInitialState(path));
  initI18n(initial.locale);
  const services = createServices(initial, path);
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App services={services} />
    </StrictMode>,
  );
}

void start();
