import { type RefObject, useEffect } from 'react';

/**
 * For a panel that opens in place of a dialog (an action panel, the tasks overlay): focus moves to
 * it when it opens, so the keyboard continues where the eye does, and goes back to what had focus
 * before (the button that opened it) when it closes while focus was inside it or lost with it.
 */
export function useFocusReturn(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = ref.current;
    panel?.focus({ preventScroll: false });
    return () => {
      const active = document.activeElement;
      const lost = !active || active === document.body || (panel?.contains(active) ?? false);
      if (lost && opener?.isConnected) opener.focus();
    };
  }, [ref]);
}
