import { i18next } from '../i18n';

/** Writes text to the clipboard; browsers without clipboard support get an alert. */
export async function copyToClipboard(text: string): Promise<boolean> {
  if (!globalThis.navigator?.clipboard?.writeText) {
    alert(i18next.t('clipboard.writeUnsupported'));
    return false;
  }
  await navigator.clipboard.writeText(text);
  return true;
}

/** Reads text from the clipboard, or undefined (after an alert) when the browser cannot. */
export async function readClipboard(): Promise<string | undefined> {
  if (!globalThis.navigator?.clipboard?.readText) {
    alert(i18next.t('clipboard.readUnsupported'));
    return undefined;
  }
  return navigator.clipboard.readText();
}
