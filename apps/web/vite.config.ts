import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.DOSSIER_SERVER_URL ?? 'http://127.0.0.1:3000';

// In development the server renders the HTML shell (with the initial state) from this server's
// transformed /index.html, which points at Vite's /@vite/client, the React refresh preamble and
// /src/main.tsx. Every other request (page navigations, API calls, the /__ws socket) is forwarded
// to the server.
const NOT_VITE = '^/(?!@|src/|node_modules/|__vite|__open-in-editor|index\\.html(?:[?#]|$)).*';

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1000,
    // scripts/checkBundle.mjs reads which chunks each page loads from the manifest.
    manifest: true,
    rolldownOptions: {
      output: {
        // The two heavy libraries, each used by one kind of page only, come in two files each:
        // their foundations (ProseMirror; d3 and the chart's state store) apart from TipTap and
        // recharts, so each file stays within the 100 KB budget, both load in parallel and an
        // update of one leaves the other cached. A group takes the dependencies of what it captures
        // too, so nothing that imports React belongs in one.
        codeSplitting: {
          groups: [
            {
              name: 'prosemirror',
              test: /node_modules[\\/](prosemirror-|orderedmap|rope-sequence|w3c-keyname|linkifyjs)/,
            },
            {
              name: 'chart-foundations',
              test: /node_modules[\\/](d3-|victory-vendor|@reduxjs|redux|reselect|immer|decimal\.js-light|es-toolkit|eventemitter3)/,
            },
            // libphonenumber (the phone number rules and the country list, with its metadata) in a
            // file of known name, so the budget's test can tell it stays out of the first load.
            { name: 'libphonenumber', test: /node_modules[\\/]libphonenumber-js/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/__ws': { target: server.replace(/^http/, 'ws'), ws: true },
      [NOT_VITE]: { target: server, changeOrigin: false },
    },
  },
});
