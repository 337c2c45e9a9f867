/**
 * Replaces every object in a view tree whose taskId matches the pushed task (task
 * push). The pushed fields win; fields the push lacks and the object's own `$type` are kept, so a
 * richer object in the view stays renderable. Unchanged branches keep their identity.
 */
export function replaceByTaskId<T>(tree: T, task: { taskId: string } & Record<string, unknown>): T {
  return walk(tree, task) as T;
}

function walk(node: unknown, task: { taskId: string } & Record<string, unknown>): unknown {
  if (Array.isArray(node)) {
    let changed = false;
    const next = node.map((item) => {
      const out = walk(item, task);
      if (out !== item) changed = true;
      return out;
    });
    return changed ? next : node;
  }
  if (!node || typeof node !== 'object') return node;
  const record = node as Record<string, unknown>;
  if (record.taskId === task.taskId) {
    return { ...record, ...task, $type: record.$type ?? task.$type };
  }
  let changed = false;
  const next: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    const out = walk(value, task);
    if (out !== value) changed = true;
    next[key] = out;
  }
  return changed ? next : node;
}
