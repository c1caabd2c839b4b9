// The reference point of the benchmark: a bare Koa app that answers the captured URLs with the exact status,
// headers and body bytes the real server returned, and nothing else. Run as its own process, like the server.
// A fixture marked `stringify` is kept as the parsed page and answers every query of its path: Koa serializes
// it again on each request (the cost of producing a page of that size with JSON.stringify).
// A fixture marked `durable` is the floor of a durable create: the request's JSON body is parsed and appended as a
// line to the file `durable` names, answered (with the fixture: a real create's answer) once fdatasync has put it
// on disk; writes that arrive meanwhile share the next fdatasync, as the store's journal does.
//   node bench/lib/bareKoa.mjs fixtures.json   → prints "listening http://127.0.0.1:PORT"
import { fdatasync, openSync, readFileSync, write } from 'node:fs';
import { promisify } from 'node:util';
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

const writeChunk = promisify(write);
const datasync = promisify(fdatasync);

async function writeAll(fd, buffer) {
  for (let at = 0; at < buffer.length;)
    at += (await writeChunk(fd, buffer, at, buffer.length - at)).bytesWritten ?? 0;
}

/** Lines waiting for the next write and fdatasync, with what to call once they are on disk. */
let waiting = [];
let writing = false;
/** The one file the durable fixture appends to, opened on its first write. */
let journalFd;

function appendDurably(file, line) {
  journalFd ??= openSync(file, 'a');
  return new Promise((resolve, reject) => {
    waiting.push({ line, resolve, reject });
    if (!writing) void writeWaiting();
  });
}

async function writeWaiting() {
  writing = true;
  while (waiting.length > 0) {
    const batch = waiting;
    waiting = [];
    try {
      await writeAll(journalFd, Buffer.from(batch.map((entry) => entry.line).join('')));
      await datasync(journalFd);
      for (const entry of batch) entry.resolve();
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
  writing = false;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const app = new Koa();
app.use(async (ctx) => {
  const fixture = fixtures.get(ctx.url) ?? fixtures.get(ctx.path);
  if (!fixture) {
    ctx.status = 404;
    return;
  }
  if (fixture.durable) {
    const record = JSON.parse(await readBody(ctx.req));
    await appendDurably(fixture.durable, `${JSON.stringify(record)}\n`);
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
