import { describe, expect, it } from 'vitest';
import {
  findSameLinkedPost,
  foldedForMatch,
  linkedPostKey,
  type LinkedPostIdentity,
} from '../../src/main/core/linkedPostMatch';
import { sameRecordKey } from '../../src/main/sync/sameRecord';

// The one rule of "the same venue (or organizer) entered twice" (issue 15 item 3), shared by imports and sync.

const venue = (name: string, detail: string): LinkedPostIdentity => ({ kind: 'venue', name, detail });

describe('the same venue or organizer', () => {
  it('ignores case, accents, entities, typographic quotes and spacing', () => {
    expect(foldedForMatch('TEATRO COMÙNALE')).toBe('teatro comunale');
    expect(foldedForMatch('  Teatro   Comunale ')).toBe('teatro comunale');
    expect(foldedForMatch('Caff&egrave; dell&#8217;Arte')).toBe("caffe dell'arte");
    expect(foldedForMatch('Łódź')).toBe('łodz');
  });

  it('is the same name and address for a venue, the same name and email for an organizer', () => {
    const key = linkedPostKey(venue('Teatro Comunale', 'Via Roma 1'));
    expect(linkedPostKey(venue('TEATRO COMUNALE', 'via roma 1'))).toBe(key);
    expect(linkedPostKey(venue('Teatro Comùnale', 'Via Roma 1'))).toBe(key);
    expect(linkedPostKey(venue('Teatro Comunale', 'Via Roma 2'))).not.toBe(key);
    expect(linkedPostKey(venue('', 'Via Roma 1'))).toBeNull();
    expect(linkedPostKey({ kind: 'organizer', name: 'Anna Rossi', detail: 'ANNA@example.org' })).toBe(
      linkedPostKey({ kind: 'organizer', name: 'anna rossi', detail: 'anna@example.org' }),
    );
    // A venue is never an organizer of the same name.
    expect(linkedPostKey({ kind: 'organizer', name: 'Teatro Comunale', detail: 'Via Roma 1' })).not.toBe(key);
  });

  it('the sync recognises twins by the same rule', () => {
    expect(sameRecordKey('venue', { venue: 'TEATRO COMUNALE', address: 'via roma 1' })).toBe(
      sameRecordKey('venue', { venue: 'Teatro Comùnale', address: 'Via Roma 1' }),
    );
    expect(sameRecordKey('organizer', { organizer: 'Anna', email: 'a@x.org' })).toBe(
      linkedPostKey({ kind: 'organizer', name: 'ANNA', detail: 'A@X.ORG' }),
    );
    expect(sameRecordKey('event', { title: 'x' })).toBeNull();
  });

  it('finds the same record, or one of the same name where an address is unknown, never another address', () => {
    const bologna = venue('Teatro Comunale', 'Via Roma 1');
    const ferrara = venue('Teatro Comunale', 'Corso Martiri 5');
    const noAddress = venue('Sala Borsa', '');
    const all = [ferrara, bologna, noAddress];
    expect(findSameLinkedPost(all, venue('TEATRO COMÙNALE', 'via roma 1'))).toBe(bologna);
    expect(findSameLinkedPost(all, venue('Teatro Comunale', 'Via Garibaldi 9'))).toBeNull();
    // A row without an address names the first of that name; a known address fills an unknown one.
    expect(findSameLinkedPost(all, venue('teatro comunale', ''))).toBe(ferrara);
    expect(findSameLinkedPost(all, venue('SALA BORSA', 'Piazza Nettuno 3'))).toBe(noAddress);
    expect(findSameLinkedPost(all, venue('', ''))).toBeNull();
  });
});
