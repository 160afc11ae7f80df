import { describe, expect, it } from 'vitest';
import { canonicalWords, groupTsQueryTexts, searchTermGroups, tsQueryText } from './search-terms';
import { featureTerms, words } from './tokenise';

describe('tsQueryText', () => {
  it('matches each word as a prefix of its stem and adds its thesaurus equals, whatever the inflection', () => {
    expect(tsQueryText('My account is LOCKED')).toBe('(my) | (account:*) | (is) | (lockout:* | locked:* | lock:* | locks:* | locking:*)');
    expect(tsQueryText('E-mails')).toBe('(email:* | mail:* | (e <-> mail))');
    expect(tsQueryText("printer's offline, error 1603")).toBe('(printer:* | printing:* | print:* | prints:* | printed:*) | (offline:*) | (error:*) | (1603)');
  });

  it('keeps short words and numbers whole, drops help-desk filler and repeats, and takes the longest phrase', () => {
    expect(tsQueryText('pc not working, pc keeps freezing')).toBe(
      '(computer:* | pc | laptop:* | desktop:* | workstation:* | notebook:*) | (not) | (crash:* | crashes:* | crashing:* | freeze:* | freezes:* | freezing:* | frozen:* | hang:* | hangs:* | hanging:* | unresponsive:*)',
    );
    expect(searchTermGroups('multi factor prompt').map((group) => group.source)).toEqual(['multi factor', 'prompt']);
  });

  it('gives the words as written only when asked without equals, and nothing for a text without words', () => {
    expect(tsQueryText('forgot pw', { equals: false })).toBe('(forgot:*) | (pw)');
    expect(tsQueryText(' — ! ')).toBe('');
  });

  it('keeps accents and other scripts as the stored texts keep them', () => {
    expect(tsQueryText('Zürich café Принтер')).toBe('(zürich:*) | (café:*) | (принтер:*)');
  });

  it('never lets tsquery syntax through: operators in the text are word breaks', () => {
    expect(tsQueryText("router' | nas:* & !modem <-> (hub)")).toBe('(router:*) | (nas) | (modem:*) | (hub)');
  });
});

describe('canonicalWords', () => {
  it('turns equals into their group’s first word, phrases included', () => {
    expect(canonicalWords(words('forgot my pwd, 2fa on my new smartphone'))).toEqual(['forgot', 'password', 'mfa', 'new', 'phone']);
    expect(featureTerms('e mail bounced', { wordBigrams: false, charNgrams: null, thesaurus: true })).toEqual(['email', 'bounce']);
    expect(featureTerms('e mail bounced', { wordBigrams: false, charNgrams: null })).toEqual(['mail', 'bounc']);
  });
});

describe('groupTsQueryTexts', () => {
  it('gives each word group of the query alone, with its equals, in the order of tsQueryText', () => {
    expect(groupTsQueryTexts('Chrome opening gambling sites')).toEqual(['chrome:*', 'opening:*', 'gambling:*', 'sites:*']);
    expect(groupTsQueryTexts('forgot my pw')).toEqual(tsQueryText('forgot my pw').split(' | (').map((group) => group.replace(/^\(|\)$/g, '')));
    expect(groupTsQueryTexts(' — ! ')).toEqual([]);
  });
});
