// Dropping a non-image file, or a link, onto the page is blocked everywhere except inside areas
// that explicitly allow dropped files (marked with the data-allow-drop attribute).

export const ALLOW_DROP_ATTRIBUTE = 'data-allow-drop';

interface DropItem {
  kind: string;
  type: string;
}
interface DropData {
  items?: ArrayLike<DropItem> | null;
  types?: ReadonlyArray<string> | null;
}
interface ClosestTarget {
  closest?: (selector: string) => unknown;
}

export function insideAllowedArea(target: unknown): boolean {
  const element = target as ClosestTarget | null;
  return typeof element?.closest === 'function' && element.closest(`[${ALLOW_DROP_ATTRIBUTE}]`) != null;
}

/** True when the drag or drop must be refused at this target. */
export function shouldBlockDrop(target: unknown, data: DropData | null | undefined): boolean {
  if (insideAllowedArea(target)) return false;
  if (!data) return false;
  const items = Array.from(data.items ?? []);
  const files = items.filter((item) => item.kind === 'file');
  if (files.length > 0) return files.some((file) => !file.type.startsWith('image/'));
  const types = Array.from(data.types ?? []);
  return types.includes('Files') || types.includes('text/uri-list');
}

/** Installs the guard on the window; answers the function that removes it. */
export function installDropGuard(win: Window = window): () => void {
  const guard = (event: DragEvent) => {
    if (shouldBlockDrop(event.target, event.dataTransfer)) {
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
    }
  };
  win.addEventListener('dragover', guard);
  win.addEventListener('drop', guard);
  return () => {
    win.removeEventListener('dragover', guard);
    win.removeEventListener('drop', guard);
  };
}
