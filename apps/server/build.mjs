// Bundles the server into dist/main.js. Workspace code (@dossier/core, TypeScript) is bundled in;
// every npm package stays external and is loaded from node_modules at run time.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@dossier/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
