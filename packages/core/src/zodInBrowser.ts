// Imported first by index.ts, so it runs before zod itself loads. Zod decides when it builds a
// schema whether to compile its parser with `new Function`, probing with `Function('')` first; the
// web app's Content-Security-Policy has no 'unsafe-eval', so in a browser that probe is a policy
// violation. Zod reads its settings from globalThis.__zod_globalConfig (created when absent), so
// setting jitless there before it loads keeps zod from ever trying eval in the browser. The server
// keeps the compiled parsers.
if ('document' in globalThis) {
  const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
}
