import {
  type EditablePart,
  pathOfRoute,
  type RouteInput,
  requestActionRoute,
  saveRequestPartRoute,
} from '@dossier/core';
import { useState } from 'react';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { useFieldErrors } from '../../ui/forms/useFieldErrors';

// The one commit hook of the request page's panels. An action (POST /requests/{n}/actions/{action})
// and a part edit (POST /requests/{n}/{part}) both answer the request view as it is after the
// commit, which the view store puts in place: the page makes no second call, and the live push of
// the same change finds the page already holding it (live/useFollowRequest.ts). Field errors come
// back to the form that sent them; other failures go to the view's error banner.

export function useRequestCommit() {
  const { view } = useServices();
  const { errors: fields, replace: setFields, changed } = useFieldErrors();
  const [busy, setBusy] = useState(false);

  async function send(path: string, body: unknown): Promise<boolean> {
    setBusy(true);
    setFields({});
    const result = await view.commit(path, body);
    setBusy(false);
    if (!result.ok && result.error instanceof ApiError && result.error.fields) setFields(result.error.fields);
    return result.ok;
  }

  const runAction = (
    requestNumber: string,
    action: string,
    body: RouteInput<typeof requestActionRoute>['body'],
  ) => send(pathOfRoute(requestActionRoute.path, { requestNumber, action }), body);

  const savePart = (requestNumber: string, part: EditablePart, version: number, data: unknown) =>
    send(pathOfRoute(saveRequestPartRoute.path, { requestNumber, part }), { version, data });

  return { fields, busy, runAction, savePart, clear: () => setFields({}), changed };
}

// Dates follow the one time-zone rule (ui/dates.ts); re-exported where the request pages took them.
export { formatDate, formatDateTime } from '../../ui/dates';
