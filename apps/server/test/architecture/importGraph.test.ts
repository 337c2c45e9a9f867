import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  featureCycles,
  featureGraph,
  featureOf,
  importEdges,
  internalImports,
  mutualPairs,
  repoRoot,
} from './importGraph.js';

// The layout rules of docs/ARCHITECTURE.md ("Features and the platform"), checked over the import
// graph of both apps: features never need each other both ways (not even through a third), a
// feature reaches another only through that feature's index.ts, and the platform (everything of
// the server outside features/) uses no feature, but for the files that put the app together.

const SERVER = join(repoRoot, 'apps/server/src');
const WEB = join(repoRoot, 'apps/web/src');

/** Server files outside the features that wire features together, so they may import them. */
const COMPOSITION = [
  /^app\.ts$/, // builds the app from every feature's routes and hooks
  /^server\.ts$/, // starts the workflow engine and the other services
  /^db\/seed\w*\.ts$/, // the demo data goes in through the features' own functions
  /^jobs\/handlers\.ts$/, // every feature's queue workers
  /^mail\/incoming\/receive\.ts$/, // a received message is stored and linked by the inbox feature
  /^mail\/sender\.ts$/, // a delivered or failed mail updates its correspondence and the workflow
];

const show = (edges: { from: string; to: string }[]) => edges.map((e) => `${e.from} → ${e.to}`);

describe.each([
  ['server', SERVER],
  ['web', WEB],
])('the %s features', (_name, srcDir) => {
  const edges = importEdges(srcDir);

  it('read the import graph (the scan finds the features and their imports)', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(new Set(edges.map((e) => featureOf(e.from)).filter(Boolean)).size).toBeGreaterThan(15);
  });

  it('import no feature that imports them back, directly or through others', () => {
    const graph = featureGraph(edges);
    expect(mutualPairs(graph)).toEqual([]);
    expect(featureCycles(graph)).toEqual([]);
  });

  it("import another feature only through that feature's index.ts", () => {
    expect(show(internalImports(edges))).toEqual([]);
  });
});

describe('the server platform', () => {
  it('imports no feature outside the files that put the app together', () => {
    const platformToFeature = importEdges(SERVER).filter(
      (e) =>
        featureOf(e.from) === null && featureOf(e.to) !== null && !COMPOSITION.some((p) => p.test(e.from)),
    );
    expect(show(platformToFeature)).toEqual([]);
  });
});

describe('the composition root', () => {
  it('is imported by no feature: the dependencies features take are typed in the platform', () => {
    const intoApp = importEdges(SERVER).filter((e) => e.to === 'app.ts' && featureOf(e.from) !== null);
    expect(show(intoApp)).toEqual([]);
  });
});

describe('the web platform', () => {
  it('keeps view/ below the features: pages are registered at the top, next to App', () => {
    const viewToFeature = importEdges(WEB).filter(
      (e) => e.from.startsWith('view/') && featureOf(e.to) !== null,
    );
    expect(show(viewToFeature)).toEqual([]);
  });
});

describe('the import graph check', () => {
  it('finds a cycle through three features and an import into internals', () => {
    const edges = [
      { from: 'features/a/service.ts', to: 'features/b/index.ts' },
      { from: 'features/b/service.ts', to: 'features/c/index.ts' },
      { from: 'features/c/service.ts', to: 'features/a/repository.ts' },
    ];
    expect(featureCycles(featureGraph(edges))).toEqual([['a', 'b', 'c']]);
    expect(show(internalImports(edges))).toEqual(['features/c/service.ts → features/a/repository.ts']);
  });
});
