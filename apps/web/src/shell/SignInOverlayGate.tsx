import { lazy, Suspense, useState } from 'react';
import { useStore } from '../view/createStore';
import { useServices } from './ServicesContext';

// The sign-in overlay opens only after a 401, so it loads then, not with the first page: with the
// second step (code, passkey) it had grown to fill the first load's budget (issue 35).
const SignInOverlay = lazy(() => import('./SignInOverlay').then((m) => ({ default: m.SignInOverlay })));

/** Mounts the sign-in overlay from its first 401 on. */
export function SignInOverlayGate() {
  const services = useServices();
  const open = useStore(services.view, (s) => s.signInRequired);
  // Once opened it stays: after the sign-in it may still say that somebody else signed in.
  const [needed, setNeeded] = useState(false);
  if (open && !needed) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <SignInOverlay />
    </Suspense>
  ) : null;
}
