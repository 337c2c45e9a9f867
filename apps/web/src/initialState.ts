import { DEFAULT_LOCALE, type InitialState } from '@dossier/core';
import { type Api, ApiError, api as defaultApi } from './api';

/** Reads the initial state the server embedded in the page, or undefined when it is missing. */
export function readEmbeddedInitialState(doc: Document = document): InitialState | undefined {
  const text = doc.getElementById('initial-state')?.textContent;
  if (!text) return undefined;
  try {
    return normalize(JSON.parse(text));
  } catch (error) {
    console.error('The embedded initial state could not be parsed', error);
    return undefined;
  }
}

/** A fallback for development: the server answers the full initial state for X-Initial-State. */
export async function fetchInitialState(path: string, api: Api = defaultApi): Promise<InitialState> {
  let body: unknown;
  try {
    // Any page path: its contract is the page's, whose answer is a view, not the whole state.
    body = await api.request<unknown>('GET', path, { headers: { 'X-Initial-State': '1' } });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return normalize({ view: { $type: 'error', status: error.status, message: error.serverMessage } });
  }
  if (body && typeof body === 'object' && 'view' in body) return normalize(body as Partial<InitialState>);
  return normalize({ view: { $type: 'error', status: 200 } });
}

function normalize(value: Partial<InitialState>): InitialState {
  return {
    user: value.user ?? null,
    view: value.view ?? { $type: 'invalidUrl', path: location.pathname },
    locale: value.locale || DEFAULT_LOCALE,
    features: value.features ?? {},
  };
}
