import { z } from 'zod';
import { NAMESPACE } from '../enums';

/**
 * The sync part of the admin namespace `calendar-desk/v1`, as zod schemas shared by the server and the
 * desktop Sync screen: what `GET/PUT remotes`, `POST remotes/check`, `POST remotes/{id}/plan`,
 * `POST remotes/{id}/sync`, `GET sync-jobs/{id}` take and answer.
 */

/** What the sync pushes, in push order (deletions run in the reverse order). */
export const SYNC_KINDS = ['category', 'tag', 'venue', 'organizer', 'event'] as const;
export const syncKindSchema = z.enum(SYNC_KINDS);
export type SyncKind = z.infer<typeof syncKindSchema>;

export const POLICIES = ['ask', 'local-wins', 'remote-wins', 'skip'] as const;
export const policySchema = z.enum(POLICIES);
export type ConflictPolicy = z.infer<typeof policySchema>;

/** Decisions on single conflicts, keyed `kind:localId` (e.g. `event:12`), overriding the policy. */
export const decisionsSchema = z.record(z.string(), z.enum(['local-wins', 'remote-wins', 'skip']));
export type Decisions = z.infer<typeof decisionsSchema>;

/**
 * Which way a sync goes: `both` (the default) sends local changes and takes the remote's; `push` only sends
 * (`--push-only`), `pull` only takes (`--pull-only`).
 */
export const SYNC_DIRECTIONS = ['both', 'push', 'pull'] as const;
export const directionSchema = z.enum(SYNC_DIRECTIONS);
export type SyncDirection = z.infer<typeof directionSchema>;

/**
 * What to do with venues (or organizers) of one name that the remote would make one record (issue 28):
 * `keep-apart` gives the others a distinguishing name (here and there), `merge` merges them here first.
 */
export const SAME_NAME_CHOICES = ['keep-apart', 'merge'] as const;
export const sameNameChoiceSchema = z.enum(SAME_NAME_CHOICES);
export type SameNameChoice = z.infer<typeof sameNameChoiceSchema>;

/**
 * Local venues or organizers of one name that the remote would make one record: `localIds` (the first keeps
 * its name), and the names `keep-apart` gives them (`apartNames`, in the same order).
 */
export const sameNameGroupSchema = z.object({
  kind: z.enum(['venue', 'organizer']),
  name: z.string(),
  localIds: z.array(z.number()),
  apartNames: z.array(z.string()),
});
export type SameNameGroup = z.infer<typeof sameNameGroupSchema>;

/** Body of `POST remotes/{id}/plan` and `POST remotes/{id}/sync`. */
export const syncRunSchema = z.object({
  policy: policySchema.default('ask'),
  decisions: decisionsSchema.default({}),
  direction: directionSchema.default('both'),
  same_names: sameNameChoiceSchema.optional(),
});

/**
 * A remote's REST root (or, for a check, its site's address) as given: an http:// or https:// address, without a
 * user name or password in it (`https://user:pass@site/`): credentials have their own fields, where they are
 * sealed and sent only to that site; in the address they would be shown wherever the address is, and a name
 * before `@` can make an address look like another site's.
 */
export const remoteRootSchema = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'use an http:// or https:// address')
  .refine((url) => {
    try {
      const { username, password } = new URL(url);
      return !username && !password;
    } catch {
      return true; // not an address at all: said by .url()
    }
  }, 'the address holds a user name or password (before @): give the address without them, and the user and password in their own fields');

/** A remote's credentials given in full: a bearer token, or a user with an application password; null: none. */
export const remoteAuthSchema = z
  .union([
    z.object({ token: z.string().min(1) }),
    z.object({ user: z.string().min(1), password: z.string().min(1) }),
  ])
  .nullable();
export type RemoteAuth = z.infer<typeof remoteAuthSchema>;

/**
 * A sync with a remote given in full rather than saved: what `calendar-desk sync` takes as flags, and sends as
 * the body of `POST sync-jobs` when the data folder's server runs the sync.
 */
export const adHocSyncSchema = z.object({
  remote: remoteRootSchema,
  namespace: z.string().min(1).default(NAMESPACE),
  auth: remoteAuthSchema,
  policy: policySchema.default('ask'),
  direction: directionSchema.default('both'),
  dry_run: z.boolean().default(false),
  decisions: decisionsSchema.default({}),
  same_names: sameNameChoiceSchema.optional(),
});
/** An ad-hoc sync request, every default filled in. */
export type AdHocSyncRequest = z.infer<typeof adHocSyncSchema>;

/** A saved remote as the API shows it: never its secret, only whether one is saved. */
export const remoteViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  root: z.string(),
  namespace: z.string(),
  auth_type: z.enum(['token', 'password', 'none']),
  user: z.string(),
  has_secret: z.boolean(),
});
export type RemoteView = z.infer<typeof remoteViewSchema>;

/** One remote of the `PUT remotes` list: `secret` only when it changes (absent keeps the saved one). */
export const remoteInputSchema = z.object({
  id: z.string().min(1).max(64).optional(),
  name: z.string().max(200).default(''),
  root: remoteRootSchema,
  namespace: z.string().min(1).default(NAMESPACE),
  auth_type: z.enum(['token', 'password', 'none']),
  user: z.string().default(''),
  secret: z.string().min(1).optional(),
});
export type RemoteInput = z.infer<typeof remoteInputSchema>;

/**
 * `POST remotes/check`: a site to check before it is saved — its address (the site's own or its /wp-json/
 * root) and credentials; `id` of a saved remote lends its sealed secret when none is typed.
 */
export const remoteCheckSchema = remoteInputSchema
  .pick({ id: true, root: true, auth_type: true, user: true, secret: true })
  .extend({
    user: z.string().default(''),
    /** A CalDAV server whose account has several calendars: the one to sync with, by name. */
    calendar: z.string().trim().min(1).max(200).optional(),
  });
export type RemoteCheckInput = z.infer<typeof remoteCheckSchema>;
/** The answer of `POST remotes/check`: the REST root and events namespace to save, and the kind of site. */
export const remoteCheckResultSchema = z.object({
  root: z.string(),
  namespace: z.string(),
  kind: z.enum(['wordpress', 'calendar-desk', 'caldav']),
  /** A CalDAV calendar: its name on the server. */
  calendar: z.string().optional(),
});
export type RemoteCheckResult = z.infer<typeof remoteCheckResultSchema>;

/**
 * One field that differs between the local and the remote version of a record; in a conflict of a record
 * synced before, also `base`: the value both sides had at the last sync (the three values of a three-way merge).
 */
export const fieldDiffSchema = z.object({
  field: z.string(),
  local: z.unknown(),
  remote: z.unknown(),
  base: z.unknown().optional(),
});
export type FieldDiff = z.infer<typeof fieldDiffSchema>;

export const conflictSchema = z.object({
  kind: syncKindSchema,
  localId: z.number(),
  remoteId: z.number().nullable(),
  reason: z.enum(['both-changed', 'local-deleted-remote-changed', 'remote-deleted', 'both-exist']),
  title: z.string(),
  diff: z.array(fieldDiffSchema),
});
export type Conflict = z.infer<typeof conflictSchema>;
export type ConflictReason = Conflict['reason'];

const step = { kind: syncKindSchema, localId: z.number(), title: z.string() };
/**
 * One step of a sync. `adopt` links an existing remote record (same uid, slug, or a venue's or organizer's name
 * and address) without sending it; `accept` makes the remote's current state the new baseline without sending
 * anything; `pull` gives the local record the remote's version; `merge` takes the remote's changes of the
 * fields in `toLocal` here and sends the local changes of those in `toRemote` there (a three-way merge);
 * `import` creates here a record new on the remote (`localId` 0 until it exists); `trash` moves to the local
 * trash a record deleted on the remote; `unlink` forgets a link.
 */
export const operationSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('create'), ...step }),
  z.object({
    type: z.literal('update'),
    ...step,
    remoteId: z.number(),
    force: z.boolean(),
    /** The fields the update changes on the remote (when the remote record was read). */
    diff: z.array(fieldDiffSchema).optional(),
  }),
  z.object({ type: z.literal('delete'), ...step, remoteId: z.number(), force: z.boolean() }),
  z.object({ type: z.literal('adopt'), ...step, remoteId: z.number(), thenUpdate: z.boolean() }),
  z.object({ type: z.literal('accept'), ...step, remoteId: z.number() }),
  z.object({ type: z.literal('pull'), ...step, remoteId: z.number() }),
  z.object({
    type: z.literal('merge'),
    ...step,
    remoteId: z.number(),
    toLocal: z.array(z.string()),
    toRemote: z.array(z.string()),
    /** Local changes not sent (a pull-only sync): they stay to be sent by the next sync that pushes. */
    localPending: z.boolean(),
  }),
  z.object({ type: z.literal('import'), ...step, remoteId: z.number() }),
  z.object({ type: z.literal('trash'), ...step }),
  z.object({ type: z.literal('unlink'), ...step }),
]);
export type Operation = z.infer<typeof operationSchema>;

export const syncSummarySchema = z.object({
  created: z.number(),
  updated: z.number(),
  deleted: z.number(),
  adopted: z.number(),
  /** Local records that took the remote's version, or some of its fields (a merge). */
  pulled: z.number(),
  /** Records new on the remote, created here. */
  imported: z.number(),
  /** Local records moved to the trash because the remote deleted them. */
  trashed: z.number(),
  /** Pictures uploaded to the remote (each once; later syncs send its remote id). */
  uploaded: z.number(),
  conflicts: z.number(),
  failed: z.number(),
});
export type SyncSummary = z.infer<typeof syncSummarySchema>;

export const recordFailureSchema = z.object({
  kind: syncKindSchema,
  localId: z.number(),
  title: z.string(),
  code: z.string(),
  message: z.string(),
});
export type RecordFailure = z.infer<typeof recordFailureSchema>;

/** The answer of a plan (`dryRun: true`: what would be done) and the report of a finished sync. */
export const syncReportSchema = z.object({
  remote: z.string(),
  namespace: z.string(),
  dryRun: z.boolean(),
  operations: z.array(operationSchema),
  conflicts: z.array(conflictSchema),
  summary: syncSummarySchema,
  failures: z.array(recordFailureSchema),
  interrupted: z.boolean(),
  /**
   * Venues or organizers of one name the remote would make one record, still to settle (a plan), or settled
   * by this sync's `same_names` choice; absent in reports of earlier versions.
   */
  sameNames: z.array(sameNameGroupSchema).optional(),
});
export type SyncReport = z.infer<typeof syncReportSchema>;

/** `GET sync-jobs/{id}`: poll until `state` is no longer `running`. */
export const syncJobStatusSchema = z.object({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  /** Operations done of the total (0/0 while the remote is being read). */
  done: z.number(),
  total: z.number(),
  last: z.string().nullable(),
  report: syncReportSchema.nullable(),
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      /** Stopped part-way (the remote went away): what was done is saved, run it again to continue. */
      stoppedPartWay: z.boolean().optional(),
    })
    .nullable(),
});
export type SyncJobStatus = z.infer<typeof syncJobStatusSchema>;
