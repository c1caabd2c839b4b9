import { describe, expect, it } from 'vitest';
import { comparableCost, comparableText, diffFields } from '../../src/main/sync/compare';

describe('the one normaliser both sides are compared through', () => {
  it('undoes what WordPress does when it shows a text: paragraphs, line breaks, entities, quotes and dashes', () => {
    const written = 'Line one & more\n\nLine two... "Quoted" isn\'t -- it';
    const shown =
      '<p>Line one &amp; more</p>\n<p>Line two&#8230; &#8220;Quoted&#8221; isn&#8217;t &#8212; it</p>\n';
    expect(comparableText(shown)).toBe(comparableText(written));
    expect(comparableText('a<br />\nb')).toBe(comparableText('a\nb'));
    expect(comparableText('Rock &#038; Roll')).toBe('Rock & Roll');
    // Other markup stays: a change of it is a change.
    expect(comparableText('<strong>a</strong>')).not.toBe(comparableText('a'));
    expect(comparableText('Concert A')).not.toBe(comparableText('Concert B'));
  });

  it('compares costs by their numbers: words and a cost of 0 are what the plugin leaves out', () => {
    expect(comparableCost(['free'])).toEqual([]);
    expect(comparableCost(['0'])).toEqual([]);
    expect(comparableCost(['10', '5', '5.00'])).toEqual(['5', '10']);
    expect(comparableCost(['15'])).not.toEqual(comparableCost(['25']));
  });

  it('a record whose content is equal has no diff; a real change is shown as it is', () => {
    const local = {
      title: 'Jazz & Swing',
      description: '<p>a</p>\n<p>b</p>',
      cost: [],
      venue: 0,
      tags: [3, 1],
    };
    const remote = {
      title: 'Jazz &#038; Swing',
      description: 'a</p>\n<p>b',
      cost: ['free'],
      venue: 0,
      tags: [1, 3],
    };
    expect(diffFields(local, remote)).toEqual([]);
    expect(diffFields({ ...local, title: 'Jazz' }, remote)).toEqual([
      { field: 'title', local: 'Jazz', remote: 'Jazz &#038; Swing' },
    ]);
  });
});
