import { DEFAULT_LOCALE, type InitialState } from '@dossier/core';

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
export async function fetchInitialState(path: string): Promise<InitialState> {
  const response = await fetch(path, {
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-Initial-State': '1', Accept: 'application/json' },
  });
  const body = await response.json().catch(() => undefined);
  if (body && typeof body === 'object' && 'view' in body) return normalize(body);
  return normalize({ view: { $type: 'error', status: response.status, message: body?.message } });
}

function normalize(value: Partial<InitialState>): InitialState {
  return {
    user: value.user ?? null,
    view: value.view ?? { $type: 'invalidUrl', path: location.pathname },
    locale: value.locale || DEFAULT_LOCALE,
    features: value.features ?? {},
  };
}
