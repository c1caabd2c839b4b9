import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, eventBody, type TestServer } from '../helpers/server';

/** The admin namespace the CLI uses to change a folder a server owns (`/wp-json/calendar-desk/v1`). */
let server: TestServer;
let admin: (path: string, init?: Parameters<TestServer['api']>[1]) => ReturnType<TestServer['api']>;

beforeAll(async () => {
  server = await startTestServer();
  admin = (path, init) => server.api(`${server.engine.apiRoot}calendar-desk/v1/${path}`, init);
});
afterAll(() => server.close());

const basic = (login: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
});

describe('/wp-json/calendar-desk/v1', () => {
  it('creates a user whose password is shown once and works at once; lists users without secrets', async () => {
    const created = await admin('users', {
      method: 'POST',
      auth: server.admin,
      json: { login: 'bob', role: 'editor' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ login: 'bob', name: 'bob', role: 'editor', credentials: 1 });
    expect(created.body.id).toEqual(expect.any(Number));
    expect(created.body.password).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    expect(created.headers.get('Cache-Control')).toBe('no-store');

    const event = await server.api('events', {
      method: 'POST',
      auth: basic('bob', created.body.password),
      json: eventBody('By bob', 3),
    });
    expect(event.status).toBe(201);

    const list = await admin('users', { auth: server.admin });
    expect(list.status).toBe(200);
    expect(list.body.map((user: { login: string; role: string }) => [user.login, user.role])).toEqual([
      ['admin', 'administrator'],
      ['bob', 'editor'],
    ]);
    // Neither the password nor any hash ever leaves the create answer.
    expect(JSON.stringify(list.body)).not.toContain(created.body.password);
    for (const user of list.body)
      expect(Object.keys(user).sort()).toEqual(['created_utc', 'credentials', 'id', 'login', 'name', 'role']);
  });

  it('revokes every credential of a user, live', async () => {
    const created = await admin('users', {
      method: 'POST',
      auth: server.admin,
      json: { login: 'carol', role: 'author' },
    });
    const carol = basic('carol', created.body.password);
    expect(
      (await server.api('events', { method: 'POST', auth: carol, json: eventBody('By carol', 3) })).status,
    ).toBe(201);

    const revoked = await admin('users/carol/revoke', { method: 'POST', auth: server.admin });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ login: 'carol', role: 'author', credentials: 0 });
    expect(
      (await server.api('events', { method: 'POST', auth: carol, json: eventBody('Again', 3) })).status,
    ).toBe(401);
  });

  it('is for administrators only: 401 for nobody, 403 for an editor, in the API error shape', async () => {
    const editor = await server.userHeaders('eddie', 'editor');
    for (const [method, path, json] of [
      ['GET', 'users', undefined],
      ['POST', 'users', { login: 'mallory', role: 'administrator' }],
      ['POST', 'users/admin/revoke', undefined],
    ] as const) {
      const anonymous = await admin(path, { method, json });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
      const denied = await admin(path, { method, json, auth: editor });
      expect(denied.status, `${method} ${path}`).toBe(403);
      expect(denied.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    }
    expect(server.engine.store.users.getByKey('mallory')).toBeUndefined();
    expect(server.engine.store.users.getByKey('admin')?.role).toBe('administrator');
    // Wrong credentials are refused before anything else, as on the public API.
    expect((await admin('users', { auth: basic('eddie', 'wrong') })).status).toBe(401);
  });

  it('validates its arguments like the public API', async () => {
    const missing = await admin('users', { method: 'POST', auth: server.admin, json: { login: 'dave' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): role',
      data: { status: 400, params: ['role'] },
    });
    const badRole = await admin('users', {
      method: 'POST',
      auth: server.admin,
      json: { login: 'dave', role: 'wizard' },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body).toMatchObject({
      code: 'rest_invalid_param',
      data: {
        status: 400,
        params: { role: 'role is not one of administrator, editor, author, contributor, subscriber.' },
      },
    });
    const badLogin = await admin('users', {
      method: 'POST',
      auth: server.admin,
      json: { login: 42, role: 'author' },
    });
    expect(badLogin.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { login: 'login is not of type string.' } },
    });
    const invalidLogin = await admin('users', {
      method: 'POST',
      auth: server.admin,
      json: { login: 'no body', role: 'author' },
    });
    expect(invalidLogin.status).toBe(400);
    expect(invalidLogin.body).toMatchObject({ code: 'invalid_login', data: { status: 400 } });
    expect(invalidLogin.body.message).toContain('"no body" is not a valid login');
    expect(server.engine.store.users.getByKey('dave')).toBeUndefined();

    const duplicate = await admin('users', {
      method: 'POST',
      auth: server.admin,
      json: { login: 'ADMIN', role: 'author' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({
      code: 'user_exists',
      message: 'A user named "ADMIN" already exists. Pick another login.',
      data: { status: 409 },
    });
    const unknown = await admin('users/nobody/revoke', { method: 'POST', auth: server.admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'user_not_found', data: { status: 404 } });
    // Revoking the built-in admin would lock the app itself out: refused, with how to rotate its token.
    const self = await admin('users/Admin/revoke', { method: 'POST', auth: server.admin });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ code: 'admin_protected', data: { status: 400 } });
    expect(self.body.message).toContain('admin-token');
    expect((await admin('users', { auth: server.admin })).status).toBe(200);
  });

  it('answers rest_no_route for what it does not have', async () => {
    for (const [method, path] of [
      ['DELETE', 'users'],
      ['GET', 'users/admin/revoke'],
      ['GET', 'nothing-here'],
    ]) {
      const result = await admin(path, { method, auth: server.admin });
      expect(result.status, `${method} ${path}`).toBe(404);
      expect(result.body).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
    }
  });
});
