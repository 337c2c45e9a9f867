// Scope paths name nodes of the organisation tree: '/', '/org/acme/', '/org/acme/branch/sydney/'.

const SEGMENT_TYPE = /^[a-z][a-zA-Z0-9]*$/;

/** Adds a missing leading or trailing slash. */
export function normalizeScopePath(value: string): string {
  let path = value.trim();
  if (!path.startsWith('/')) path = `/${path}`;
  if (!path.endsWith('/')) path = `${path}/`;
  return path;
}

/** A scope path alternates an entity type (lowercase first, then alphanumerics) and an id or name. */
export function isValidScopePath(value: string): boolean {
  if (value === '/') return true;
  if (!value.startsWith('/') || !value.endsWith('/')) return false;
  const segments = value.slice(1, -1).split('/');
  if (segments.length % 2 !== 0) return false;
  return segments.every((segment, index) =>
    index % 2 === 0 ? SEGMENT_TYPE.test(segment) : segment.length > 0,
  );
}

/** True when `scope` is `ancestor` or lies below it. */
export function isWithinScope(scope: string, ancestor: string): boolean {
  return scope.startsWith(ancestor);
}

/** The path and each of its ancestors up to '/', nearest first. */
export function scopeAncestry(scope: string): string[] {
  const result: string[] = [];
  let path = scope;
  while (path.length > 1) {
    result.push(path);
    path = path.slice(0, path.slice(0, -1).lastIndexOf('/') + 1);
  }
  result.push('/');
  return result;
}
