// Writes .br and .gz copies of the built assets next to them; the server sends the smallest one
// the browser accepts (@fastify/static preCompressed), with no compression work per request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = path.resolve(import.meta.dirname, '../dist/assets');
for (const name of fs.readdirSync(dir)) {
  if (!/\.(js|css|svg|json|txt|html)$/.test(name)) continue;
  const file = path.join(dir, name);
  const data = fs.readFileSync(file);
  if (data.length < 1024) continue;
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
}
