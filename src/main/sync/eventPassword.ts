import { WP_V2_NAMESPACE } from '../../shared/enums';
import type { LinkState } from './linkState';
import type { LocalRecord, RemoteRecord } from './model';
import { RemoteError, type RemoteClient } from './remoteClient';
import { textOf } from '../core/values';

/** Something local keeps one record from being sent (recorded on it; the other records go on). */
export class RecordProblem extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Statuses nobody but the site's editors sees: a protected event may be created in one of these as it is. */
const UNSEEN_STATUSES = new Set(['draft', 'pending', 'private']);

const passwordOf = (record: LocalRecord) => (record.kind === 'event' ? (record.password ?? '') : '');

/**
 * How a password-protected event reaches the remote without ever being visible open. A Calendar Desk takes
 * `post_password` in the event itself. The Events Calendar's API has no password field, so on WordPress the
 * event is created as a draft, and WordPress core's `wp/v2/tribe_events/{id}` then sets the password and the
 * wanted status in one request; on update the password is set before anything else changes.
 */
export function eventPasswords(client: RemoteClient, links: LinkState) {
  const refuseWithoutRoute = () => {
    if (client.passwordRoute !== null) return;
    throw new RecordProblem(
      'SYNC_PASSWORD_UNSUPPORTED',
      'It is password-protected, and this remote offers no way to set a password (no post_password field and ' +
        `no WordPress ${WP_V2_NAMESPACE} route), so it was not sent: it would have been public there. Remove its password ` +
        'here to publish it open, or publish it to another site.',
    );
  };

  /** Sets the password on WordPress; a refusal says where the event stands on the site. */
  const setOnWordPress = async (
    record: LocalRecord,
    remoteId: number,
    password: string,
    status: string | undefined,
    whereItStands: string,
  ) => {
    try {
      const answer = await client.setWordPressEventPassword(remoteId, password, status);
      await links.setProtected(record.id, password !== '');
      return answer;
    } catch (error) {
      if (!(error instanceof RemoteError) || error.code !== 'REMOTE_INSUFFICIENT_ROLE') throw error;
      throw new RemoteError(
        error.code,
        `${error.message} ${whereItStands}`,
        error.status,
        error.remoteCode,
        error.data,
      );
    }
  };

  return {
    /**
     * Prepares a create's body. Answers what to do once the remote answered: on WordPress, set the password and
     * the wanted status (the record as it then stands on the remote).
     */
    forCreate(
      record: LocalRecord,
      sent: Record<string, unknown>,
    ): ((created: RemoteRecord) => Promise<RemoteRecord>) | null {
      const password = passwordOf(record);
      if (password === '') return null;
      refuseWithoutRoute();
      if (client.passwordRoute === 'in-body') {
        sent.post_password = password;
        // Remembered as on WordPress: the planner then pushes a later password change even when nothing it
        // compares differs (a remote answering the texts in full shows no difference for it).
        return async (created) => {
          await links.setProtected(record.id, true);
          return created;
        };
      }
      const wanted = textOf(sent.status ?? 'publish');
      if (!UNSEEN_STATUSES.has(wanted)) sent.status = 'draft';
      return async (created) => {
        const answer = await setOnWordPress(
          record,
          created.id,
          password,
          wanted,
          'It was created on the site as a draft without the password, so nobody sees it there.',
        );
        return {
          ...created,
          modifiedUtc: answer.modifiedUtc ?? created.modifiedUtc,
          fields: { ...created.fields, status: answer.status },
        };
      };
    },

    /** An adopted twin may lack the password: a protected event is always brought up to date. */
    needsUpdate: (record: LocalRecord) => passwordOf(record) !== '',

    /** Before an update: the body carries the password, or WordPress gets it first. */
    async beforeUpdate(record: LocalRecord, remoteId: number, sent: Record<string, unknown>) {
      if (record.kind !== 'event') return;
      const password = passwordOf(record);
      if (client.passwordRoute === 'in-body') {
        sent.post_password = password;
        return;
      }
      if (password === '') return;
      refuseWithoutRoute();
      await setOnWordPress(
        record,
        remoteId,
        password,
        undefined,
        'Nothing of it was changed on the site: it is there as it was before this sync.',
      );
    },

    /** After an update: what the remote now has is remembered; on WordPress a password removed here is removed there. */
    async afterUpdate(record: LocalRecord, remoteId: number) {
      if (record.kind !== 'event') return;
      if (client.passwordRoute === 'in-body') return links.setProtected(record.id, passwordOf(record) !== '');
      if (client.passwordRoute !== 'wordpress') return;
      if (passwordOf(record) !== '' || !links.isProtected(record.id)) return;
      await setOnWordPress(
        record,
        remoteId,
        '',
        undefined,
        'Its other changes were sent; on the site it still asks for its old password.',
      );
    },
  };
}
