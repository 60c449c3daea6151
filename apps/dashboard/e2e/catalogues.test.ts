import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.js';
import { fr } from '../src/i18n/fr.js';

/**
 * Words that read the same in both languages: names, codes, and figures only. Any other French entry equal to its
 * English one is a sentence left untranslated.
 */
const SAME_IN_FRENCH = new Set([
  'nav.webhooks',
  'status.active',
  'desk.agenda',
  'desk.agendaDay',
  'common.none',
  'pager.label',
  'webhooks.title',
  'webhooks.url',
  'delivery.http',
  'people.actions',
  'booking.notes',
  'endpoint.day',
  'audit.targetType.session',
  'audit.targetType.invitation',
]);

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

/** The catalogues: every key in both, the same placeholders, and each sentence in French. */
describe('the message catalogues', () => {
  it('have the same keys in English and French', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
  });

  it('fill the same placeholders in both languages', () => {
    const differing = Object.entries(en)
      .filter(([key, text]) => placeholders(text).join() !== placeholders(fr[key as keyof typeof en]).join())
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it('say every sentence in French, not in English again', () => {
    const same = Object.entries(en)
      .filter(([key, text]) => fr[key as keyof typeof en] === text && !SAME_IN_FRENCH.has(key))
      .map(([key, text]) => `${key}: ${text}`);
    expect(same).toEqual([]);
  });

  it('give plural keys both their forms', () => {
    const keys = Object.keys(en);
    const lonely = keys
      .filter((key) => key.endsWith('_one') || key.endsWith('_other'))
      .map((key) => key.replace(/_(one|other)$/, ''))
      .filter((base) => !keys.includes(`${base}_other`));
    expect(lonely).toEqual([]);
  });
});
