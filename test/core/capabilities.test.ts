import { describe, expect, it } from 'vitest';
import {
  canChangePost,
  canEditPosts,
  canManageTerms,
  canPublish,
  canReadPost,
  canUploadFiles,
  scaleBackStatus,
  type Caller,
  type MaybeCaller,
} from '../../src/main/core/capabilities';
import type { PostStatus, Role } from '../../src/shared/enums';

/** REFERENCE §8.2-§8.4: role grants and WordPress' per-object meta-capability mapping. */
const ME = 7;
const SOMEONE = 8;
const caller = (role: Role): Caller => ({ userId: ME, login: role, role });
const ROLES: Array<[string, MaybeCaller]> = [
  ['anonymous', null],
  ['subscriber', caller('subscriber')],
  ['contributor', caller('contributor')],
  ['author', caller('author')],
  ['editor', caller('editor')],
  ['administrator', caller('administrator')],
];
const post = (authorId: number, status: PostStatus) => ({ authorId, status });

describe('role grants', () => {
  //                          anon   sub    contrib author editor admin
  const table: Record<string, boolean[]> = {
    canEditPosts: /*       */ [false, false, true, true, true, true],
    canPublish: /*         */ [false, false, false, true, true, true],
    canUploadFiles: /*     */ [false, false, false, true, true, true],
    'manage categories': /**/ [false, false, false, true, true, true],
    'manage tags': /*      */ [false, false, false, false, true, true],
  };
  const check: Record<string, (who: MaybeCaller) => boolean> = {
    canEditPosts,
    canPublish,
    canUploadFiles,
    'manage categories': (who) => canManageTerms(who, 'category'),
    'manage tags': (who) => canManageTerms(who, 'tag'),
  };
  it.each(Object.keys(table))('%s', (name) => {
    expect(ROLES.map(([, who]) => check[name](who))).toEqual(table[name]);
  });
});

describe('edit / delete a post (REFERENCE §8.3)', () => {
  //                                         anon   sub    contrib author editor admin
  const table: Array<[string, { authorId: number; status: PostStatus }, boolean[]]> = [
    ['own draft', post(ME, 'draft'), /*     */ [false, false, true, true, true, true]],
    ['own pending', post(ME, 'pending'), /* */ [false, false, true, true, true, true]],
    ['own published', post(ME, 'publish'), [false, false, false, true, true, true]],
    ['own scheduled', post(ME, 'future'), /**/ [false, false, false, true, true, true]],
    ['own private', post(ME, 'private'), /* */ [false, false, true, true, true, true]],
    ["others' draft", post(SOMEONE, 'draft'), [false, false, false, false, true, true]],
    ["others' published", post(SOMEONE, 'publish'), [false, false, false, false, true, true]],
    ["others' private", post(SOMEONE, 'private'), [false, false, false, false, true, true]],
  ];
  it.each(table)('%s', (_label, target, expected) => {
    expect(ROLES.map(([, who]) => canChangePost(who, target, 'edit'))).toEqual(expected);
    expect(ROLES.map(([, who]) => canChangePost(who, target, 'delete'))).toEqual(expected);
  });
});

describe('read a post', () => {
  //                                        anon   sub    contrib author editor admin
  const table: Array<[string, { authorId: number; status: PostStatus }, boolean[]]> = [
    ['published', post(SOMEONE, 'publish'), [true, true, true, true, true, true]],
    ["others' draft", post(SOMEONE, 'draft'), [false, false, false, false, true, true]],
    ["others' private", post(SOMEONE, 'private'), [false, false, false, false, true, true]],
    ['own draft', post(ME, 'draft'), /*    */ [false, true, true, true, true, true]],
  ];
  it.each(table)('%s', (_label, target, expected) => {
    expect(ROLES.map(([, who]) => canReadPost(who, target))).toEqual(expected);
  });
});

describe('status scale-back (REFERENCE §5.1)', () => {
  it.each([
    ['author', undefined, 'publish'],
    ['author', 'draft', 'draft'],
    ['editor', 'future', 'future'],
    ['administrator', 'private', 'private'],
    ['contributor', undefined, 'draft'],
    ['contributor', 'publish', 'pending'],
    ['contributor', 'future', 'pending'],
    ['contributor', 'draft', 'draft'],
    ['subscriber', 'publish', 'pending'],
  ] as Array<[Role, PostStatus | undefined, PostStatus]>)(
    '%s asking %s gets %s',
    (role, requested, stored) => {
      expect(scaleBackStatus(caller(role), requested)).toBe(stored);
    },
  );

  it('never lets an anonymous caller publish', () => {
    expect(scaleBackStatus(null, 'publish')).toBe('pending');
    expect(scaleBackStatus(null, undefined)).toBe('draft');
  });
});
