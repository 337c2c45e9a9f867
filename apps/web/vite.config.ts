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
