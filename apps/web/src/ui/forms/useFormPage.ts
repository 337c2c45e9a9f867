import { pathOfRoute, type RouteContract, type RouteInput, type View } from '@dossier/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { useUnsavedPrompt } from '../../shell/useUnsavedPrompt';
import { useStore } from '../../view/createStore';

/**
 * What every edit page needs from the view store: the dirty and committing flags, an edit of one
 * part of the view, field errors answered by the server (shown next to their fields), and the
 * unsaved-data prompt.
 */
export function useFormPage<V extends View>() {
  const { view: store } = useServices();
  const navigate = useNavigate();
  const dirty = useStore(store, (s) => s.dirty);
  const committing = useStore(store, (s) => s.committing);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Set<string>>(new Set());
  // A save that went through says so (SavedNotice) until the next edit, revert or save.
  const [saved, setSaved] = useState(false);
  useUnsavedPrompt(dirty);

  function edit(update: (view: V) => V, field?: string) {
    store.edit((v) => update(v as V));
    setSaved(false);
    if (field) {
      setTouched((t) => new Set(t).add(field));
      setServerErrors(({ [field]: _gone, ...rest }) => rest);
    }
  }

  async function commit(path: string, body: unknown) {
    setServerErrors({});
    setSaved(false);
    const result = await store.commit(path, body);
    if (!result.ok && result.error instanceof ApiError && result.error.fields)
      setServerErrors(result.error.fields);
    if (result.ok) {
      setTouched(new Set());
      setSaved(true);
    }
    return result;
  }

  function revert() {
    store.revert();
    setSaved(false);
    setServerErrors({});
    setTouched(new Set());
  }

  /**
   * The message to show at a field: the server's, else the client's once the field, or the list or
   * record it belongs to (`contacts` for `contacts.0.phone`), was edited, or anything on the form
   * was: Save is then offered, and every field that keeps it grey says why beside it, also one the
   * user has not reached yet (a required tag of a new entry).
   */
  function errorOf(clientErrors: Record<string, string>, field: string, always = false): string | undefined {
    return serverErrors[field] ?? (always || dirty || wasEdited(field) ? clientErrors[field] : undefined);
  }

  function wasEdited(field: string): boolean {
    const parts = field.split('.');
    return parts.some((_, i) => touched.has(parts.slice(0, i + 1).join('.')));
  }

  const touch = (field: string) => setTouched((t) => new Set(t).add(field));

  /**
   * Every message errorOf shows, by field: for an editor that takes the whole map (the
   * configuration's type editors).
   */
  function errorsOf(clientErrors: Record<string, string>): Record<string, string> {
    const shown: Record<string, string> = {};
    for (const field of new Set([...Object.keys(serverErrors), ...Object.keys(clientErrors)])) {
      const message = errorOf(clientErrors, field);
      if (message) shown[field] = message;
    }
    return shown;
  }

  /**
   * Saves a new item through `create` (id null) or the item through `update`, whose path names it
   * by `param`; after creating, opens the new item's page (the update's path), whose id the answer
   * names.
   */
  async function saveAndOpen<U extends RouteContract>(
    routes: { create: RouteContract; update: U; param: string },
    id: string | null,
    body: RouteInput<U>['body'],
    idOf: (saved: V) => string | null,
  ) {
    const pathOf = (value: string) => pathOfRoute(routes.update.path, { [routes.param]: value });
    const result = await commit(id === null ? routes.create.path : pathOf(id), body);
    const savedId = result.ok ? idOf(result.view as V) : null;
    if (id === null && savedId) navigate(pathOf(savedId));
    return result;
  }

  return {
    dirty,
    committing,
    saved: saved && !dirty,
    edit,
    commit,
    saveAndOpen,
    revert,
    errorOf,
    errorsOf,
    touch,
  };
}
