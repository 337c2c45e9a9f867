import { useState } from 'react';
import { ApiError } from '../../../api';
import { useServices } from '../../../shell/ServicesContext';

/**
 * Posts an action of a request panel: while it runs the panel is busy; the server's field errors
 * are kept to show at their fields, any other failure goes to the error banner.
 */
export function useActionCommit() {
  const { api, view } = useServices();
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  async function commit<T>(path: string, body: unknown): Promise<T | undefined> {
    setBusy(true);
    setServerErrors({});
    try {
      return await api.post<T>(path, body);
    } catch (error) {
      if (error instanceof ApiError && error.fields) setServerErrors(error.fields);
      view.report(error);
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  const clearError = (field: string) => setServerErrors(({ [field]: _gone, ...rest }) => rest);

  return { busy, serverErrors, commit, clearError };
}
