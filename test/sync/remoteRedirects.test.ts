import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteTransport } from '../../src/main/sync/remoteTransport';

/** One request a site saw. */
interface Seen {
  method: string;
  url: string;
  authorization?: string;
  body: string;
}

/** A real HTTP site on a loopback port answering by `answer`, recording every request with its Authorization. */
async function site(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body: Buffer.concat(chunks).toString(),
      });
      answer(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const redirect = (response: ServerResponse, status: number, location: string) => {
  response.writeHead(status, { Location: location });
  response.end();
};
const json = (response: ServerResponse, body: unknown) => {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
};

describe('redirects of a remote request', () => {
  it('carry the credentials on the remote’s own origin only, also when they come back to it', async () => {
    let otherOrigin = '';
    const remote = await site((request, response) => {
      if (request.url === '/wp-json/ns/first') redirect(response, 307, `${otherOrigin}/elsewhere`);
      else json(response, { ok: true });
    });
    const other = await site((_request, response) =>
      redirect(response, 307, `${remote.origin}/wp-json/ns/back`),
    );
    otherOrigin = other.origin;
    const transport = new RemoteTransport(`${remote.origin}/wp-json/ns/`, {
      auth: { user: 'editor', password: 'secret pass' },
      attempts: 1,
    });
    const answer = await transport.request('GET', 'first');
    expect(answer.body).toEqual({ ok: true });
    const basic = `Basic ${Buffer.from('editor:secret pass').toString('base64')}`;
    expect(remote.seen.map((request) => [request.url, request.authorization])).toEqual([
      ['/wp-json/ns/first', basic],
      ['/wp-json/ns/back', basic],
    ]);
    expect(other.seen.map((request) => [request.url, request.authorization])).toEqual([
      ['/elsewhere', undefined],
    ]);
  });

  it('a 303 after a POST is followed with a GET without the body; a 308 repeats the POST', async () => {
    const remote = await site((request, response) => {
      if (request.url === '/ns/see-other') redirect(response, 303, '/ns/result');
      else if (request.url === '/ns/moved') redirect(response, 308, '/ns/result');
      else json(response, { method: request.method });
    });
    const transport = new RemoteTransport(`${remote.origin}/ns/`, { auth: { token: 't' }, attempts: 1 });
    expect((await transport.request('POST', 'see-other', { body: { a: 1 }, retry: false })).body).toEqual({
      method: 'GET',
    });
    expect((await transport.request('POST', 'moved', { body: { a: 1 }, retry: false })).body).toEqual({
      method: 'POST',
    });
    expect(remote.seen.map((request) => [request.method, request.url, request.body])).toEqual([
      ['POST', '/ns/see-other', '{"a":1}'],
      ['GET', '/ns/result', ''],
      ['POST', '/ns/moved', '{"a":1}'],
      ['POST', '/ns/result', '{"a":1}'],
    ]);
  });

  it('a redirect to anything but an http(s) address is a failure in words, never read', async () => {
    const remote = await site((request, response) => {
      const to: Record<string, string> = {
        '/ns/data': 'data:application/json,{"events":[{"id":1,"title":"Planted"}]}',
        '/ns/file': 'file:///etc/passwd',
        '/ns/ftp': 'ftp://127.0.0.1/list.json',
        '/ns/user': 'http://user:pass@127.0.0.1:1/ns/list',
      };
      redirect(response, 302, to[request.url ?? ''] ?? '/ns/none');
    });
    const transport = new RemoteTransport(`${remote.origin}/ns/`, { auth: { token: 't' }, attempts: 1 });
    for (const [path, scheme] of [
      ['data', 'data:'],
      ['file', 'file:'],
      ['ftp', 'ftp:'],
    ]) {
      const error = await transport.request('GET', path).catch((caught: unknown) => caught);
      expect(error, path).toMatchObject({ code: 'REMOTE_UNREACHABLE' });
      expect((error as Error).message, path).toContain(`redirected to a ${scheme} address`);
      expect((error as Error).message, path).not.toContain('Planted');
    }
    // An address with a user and password in it is not followed either, and the password is not repeated.
    const error = await transport.request('GET', 'user').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'REMOTE_UNREACHABLE' });
    expect((error as Error).message).toContain('redirected to an address with a user name or password');
    expect((error as Error).message).not.toContain('pass@');
  });

  it('an endless chain of redirects is a failure in words, not a hang', async () => {
    const remote = await site((request, response) => redirect(response, 302, `${request.url}x`));
    const transport = new RemoteTransport(`${remote.origin}/ns/`, { auth: null, attempts: 1 });
    await expect(transport.request('GET', 'loop')).rejects.toMatchObject({
      code: 'REMOTE_UNREACHABLE',
      message: expect.stringMatching(/redirected more than 10 times/),
    });
    expect(remote.seen).toHaveLength(11);
  });
});
