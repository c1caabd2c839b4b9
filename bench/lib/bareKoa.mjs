// The reference point of the benchmark: a bare Koa app that answers the captured URLs with the exact status,
// headers and body bytes the real server returned, and nothing else. Run as its own process, like the server.
// A fixture marked `stringify` is kept as the parsed page and answers every query of its path: Koa serializes
// it again on each request (the cost of producing a page of that size with JSON.stringify).
//   node bench/lib/bareKoa.mjs fixtures.json   → prints "listening http://127.0.0.1:PORT"
import { readFileSync } from 'node:fs';
import Koa from 'koa';

const fixtures = new Map(
  JSON.parse(readFileSync(process.argv[2], 'utf8')).map((fixture) => [
    fixture.url,
    {
      ...fixture,
      body: fixture.stringify
        ? JSON.parse(Buffer.from(fixture.body, 'base64').toString('utf8'))
        : Buffer.from(fixture.body, 'base64'),
    },
  ]),
);

const app = new Koa();
app.use((ctx) => {
  const fixture = fixtures.get(ctx.url) ?? fixtures.get(ctx.path);
  if (!fixture) {
    ctx.status = 404;
    return;
  }
  ctx.status = fixture.status;
  // Headers first: Koa keeps a Content-Type that is already set when the body is a Buffer or an object.
  for (const [name, value] of fixture.headers) ctx.set(name, value);
  ctx.body = fixture.body;
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
