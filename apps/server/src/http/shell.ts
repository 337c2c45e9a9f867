import fs from 'node:fs';
import path from 'node:path';
import { type InitialState, PRODUCT_NAME } from '@dossier/core';

// The HTML page every route answers to a browser: the built index.html of the web app with the
// title and the initial state put in. In development the page points at the Vite dev server.

export interface ShellRenderer {
  render(state: InitialState): Promise<string>;
}

/**
 * `devServer` is the Vite dev server: its index.html (with Vite's client and React refresh put in)
 * is fetched for every page so edits show on reload. Otherwise the built index.html is read once.
 */
export function createShellRenderer(options: {
  distDir: string;
  devServer?: string | undefined;
}): ShellRenderer {
  let template: string | undefined;
  const load = async () => {
    if (options.devServer) return (await fetch(new URL('/index.html', options.devServer))).text();
    template ??= fs.readFileSync(path.join(options.distDir, 'index.html'), 'utf8');
    return template;
  };
  return {
    async render(state) {
      const title = escapeHtml(state.view.title ?? PRODUCT_NAME);
      // '<' is escaped so no string in the state can close the script element.
      const json = JSON.stringify(state)
        .replace(/</g, '\\u003c')
        .replace(/\u2028/g, '\\u2028')
        .replace(/\u2029/g, '\\u2029');
      // Replacer functions: a replacement string would read `$&`, `$'` and `` $` `` in the data.
      return (await load())
        .replace('<!--title-->', () => title)
        .replace(
          '<!--initial-state-->',
          () => `<script id="initial-state" type="application/json">${json}</script>`,
        );
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
