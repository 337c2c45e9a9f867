import { useCallback, useState } from 'react';

/**
 * The field errors a server answered for a form. Each one is about the value the field had when
 * it was sent, so a field's message goes away as soon as the field changes (issue 24: the
 * change-password page kept "must differ" after the user had typed another password). A message
 * that compares two fields is dropped when either changes: name both in `changed`.
 */
export function useFieldErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const changed = useCallback((...fields: string[]) => {
    setErrors((current) => {
      if (!fields.some((field) => field in current)) return current;
      const rest = { ...current };
      for (const field of fields) delete rest[field];
      return rest;
    });
  }, []);
  return { errors, replace: setErrors, changed };
}
