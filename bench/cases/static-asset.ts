import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, WEB_DIST_DIR } from '../lib/servers.js';
import type { BenchCase } from '../lib/types.js';

const ASSETS_DIR = path.join(WEB_DIST_DIR, 'assets');

function firstAsset(): string | undefined {
  if (!fs.existsSync(ASSETS_DIR)) return undefined;
  return fs
    .readdirSync(ASSETS_DIR, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort()[0];
}

export const staticAsset: BenchCase = {
  name: 'static-asset',
  description: 'GET /assets/<first file of apps/web/dist/assets> through @fastify/static',
  prepare() {
    if (firstAsset()) return undefined;
    console.log('apps/web/dist/assets is missing or empty: running `npm run build -w @dossier/web` first…');
    const build = spawnSync('npm', ['run', 'build', '-w', '@dossier/web'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status === 0 && firstAsset()) return undefined;
    return 'the web build failed (see above), so there is no asset to serve; run `npm run build -w @dossier/web` and fix it';
  },
  async target(ctx) {
    // Looked up again: the build folder may have been rebuilt since prepare().
    const asset = firstAsset();
    if (!asset) return { skip: `no file in ${path.relative(ROOT, ASSETS_DIR)}` };
    const size = fs.statSync(path.join(ASSETS_DIR, asset)).size;
    return {
      url: `${await ctx.dossierUrl()}/assets/${asset}`,
      note: `/assets/${asset} (${(size / 1024).toFixed(1)} KiB, no compression)`,
    };
  },
};
