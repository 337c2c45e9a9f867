import { useEffect, useRef, useState } from 'react';

/** Text inputs commit an edited value on blur, or this long after the last keystroke. */
export const COMMIT_DELAY_MS = 200;

/**
 * Local text for an input bound to a value: keystrokes change the text at once; the value is
 * committed on blur or COMMIT_DELAY_MS after the last key. A new value from outside replaces the
 * text unless the user is typing.
 */
export function useCommittedText(value: string, commit: (text: string) => void, delay = COMMIT_DELAY_MS) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef(false);
  const commitRef = useRef(commit);
  commitRef.current = commit;

  useEffect(() => {
    if (!pending.current) setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const flush = (next: string) => {
    clearTimeout(timer.current);
    pending.current = false;
    commitRef.current(next);
  };
  return {
    text,
    onChange(next: string) {
      setText(next);
      pending.current = true;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => flush(next), delay);
    },
    onBlur() {
      if (pending.current) flush(text);
    },
  };
}
