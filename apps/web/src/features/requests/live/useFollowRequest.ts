import { pathOfRoute, requestPageRoute, type View } from '@dossier/core';
import { onRequestChanged } from '../../../shell/liveChanges';
import { isRequestPath } from '../../../shell/liveMessages';
import { useFollowView } from '../../../view/follow';

/** The version of a request view, or undefined for another view. */
export function requestVersion(view: View): number | undefined {
  const request = (view as { request?: { version?: unknown } }).request;
  return typeof request?.version === 'number' ? request.version : undefined;
}

/**
 * Whether a fetched view may replace the shown one: the same request, and not older than what is
 * shown (the page's own save may have answered a newer version while the fetch was under way).
 */
export function isNewerOrSame(fetched: View, shown: View, requestNumber: string): boolean {
  const numberOf = (v: View) => (v as { request?: { requestNumber?: unknown } }).request?.requestNumber;
  if (fetched.$type !== shown.$type || numberOf(fetched) !== requestNumber) return false;
  if (numberOf(shown) !== requestNumber) return false;
  const a = requestVersion(fetched);
  const b = requestVersion(shown);
  return a === undefined || b === undefined || a >= b;
}

/** Whether the shown view is this request at a version past the one a change was recorded at. */
export function holdsChange(shown: View, requestNumber: string, since: number): boolean {
  const number = (shown as { request?: { requestNumber?: unknown } }).request?.requestNumber;
  const version = requestVersion(shown);
  return number === requestNumber && version !== undefined && version > since;
}

/**
 * Keeps the open request page up to date with changes made by others and by the workflow (the
 * server tells whoever has the request open). `editing`: an action panel or a part edit is open.
 */
export function useFollowRequest(requestNumber: string, editing: boolean) {
  const fallback = pathOfRoute(requestPageRoute.path, { requestNumber });
  return useFollowView({
    key: requestNumber,
    editing,
    subscribe: (changed) =>
      onRequestChanged((change) => {
        if (change.requestNumber !== requestNumber) return;
        const since = change.version;
        // A change recorded at version v is in every copy of a greater version (the page's own
        // action answered one after its commit); a message without a version is always fetched.
        if (since === undefined) changed();
        else changed((shown) => holdsChange(shown.view, requestNumber, since));
      }),
    path: (shown) => (isRequestPath(shown.path, requestNumber) ? shown.path : fallback),
    accepts: (fresh, shown) =>
      isRequestPath(shown.path, requestNumber) && isNewerOrSame(fresh, shown.view, requestNumber),
  });
}
