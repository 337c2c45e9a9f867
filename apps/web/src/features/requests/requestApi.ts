import { useState } from 'react';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';
import { useFieldErrors } from '../../ui/forms/useFieldErrors';

// Commits of the request page: an action (POST /requests/{n}/actions/{action}) answers no view, so
// the page reloads when the panel reports it done; a part edit (POST /requests/{n}/{part}) answers the new view. Field
// errors come back to the form that sent them; other failures go to the view's error banner.

export function useRequestCommit() {
  const { api, view } = useServices();
  const { errors: fields, replace: setFields, changed } = useFieldErrors();
  const [busy, setBusy] = useState(false);

  async function runAction(requestNumber: string, action: string, body: unknown): Promise<boolean> {
    setBusy(true);
    setFields({});
    try {
      await api.post(`/requests/${encodeURIComponent(requestNumber)}/actions/${action}`, body);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.fields) setFields(error.fields);
      view.report(error);
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function savePart(
    requestNumber: string,
    part: string,
    version: number,
    data: unknown,
  ): Promise<boolean> {
    setBusy(true);
    setFields({});
    const result = await view.commit(`/requests/${encodeURIComponent(requestNumber)}/${part}`, {
      version,
      data,
    });
    setBusy(false);
    if (!result.ok && result.error instanceof ApiError && result.error.fields) setFields(result.error.fields);
    return result.ok;
  }

  return { fields, busy, runAction, savePart, clear: () => setFields({}), changed };
}

// Dates follow the one time-zone rule (ui/dates.ts); re-exported where the request pages took them.
export { formatDate, formatDateTime } from '../../ui/dates';
