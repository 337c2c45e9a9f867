import type { View } from '@dossier/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isRequestPath } from '../../../shell/liveMessages';
import { onRequestChanged } from '../../../shell/requestChanges';
import { useServices } from '../../../shell/ServicesContext';
import { followRequest, isNewerOrSame } from './followRequest';

/**
 * Keeps the open request page up to date with changes made by others and by the workflow.
 * `editing`: an action panel or a part edit is open. Answers whether a newer state is held back
 * (the page shows the notice) and the function that shows it.
 */
export function useFollowRequest(requestNumber: string, editing: boolean) {
  const { api, view: store } = useServices();
  const [held, setHeld] = useState<View | null>(null);
  const editingRef = useRef(editing);
  editingRef.current = editing;

  const apply = useCallback(
    (fresh: View) => {
      const shown = store.get();
      // The user may have gone elsewhere, or saved a newer state, while the fetch was under way.
      if (!isRequestPath(shown.path, requestNumber) || !isNewerOrSame(fresh, shown.view, requestNumber))
        return;
      store.patch(() => fresh);
    },
    [store, requestNumber],
  );

  useEffect(() => {
    setHeld(null);
    const follower = followRequest({
      fetch: () => {
        const path = store.get().path;
        return api.get<View>(
          isRequestPath(path, requestNumber) ? path : `/requests/${encodeURIComponent(requestNumber)}`,
        );
      },
      isEditing: () => editingRef.current || store.get().dirty,
      apply,
      hold: setHeld,
      // A missed update is made good by the next one or a reload; no banner for it.
      report: (error) => console.error('Following the request failed', error),
    });
    const stop = onRequestChanged((change) => {
      if (change.requestNumber === requestNumber) follower.changed();
    });
    return () => {
      stop();
      follower.stop();
    };
  }, [api, store, requestNumber, apply]);

  // Once the user stops editing (saved or cancelled), what was held back goes in.
  useEffect(() => {
    if (editing || !held) return;
    apply(held);
    setHeld(null);
  }, [editing, held, apply]);

  const showChanges = useCallback(() => {
    if (held) apply(held);
    setHeld(null);
  }, [held, apply]);

  return { changedElsewhere: held !== null, showChanges };
}
