// JSON bodies sent by the client omit client-only state: every property whose name starts with
// '$', except the type marker '$type'.
export function stripClientState<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => stripClientState(item)) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key.startsWith('$') && key !== '$type') continue;
    out[key] = stripClientState(item);
  }
  return out as T;
}
