import { describe, expect, it } from 'vitest';
import { featureTerms, words } from './tokenise';

describe('words', () => {
  it('lower-cases, drops accents, stop words and long numbers, and meets inflections', () => {
    expect(words("My PRINTER's printing — café printers, ticket 1234567, help!")).toEqual(['printer', 'print', 'cafe', 'printer', 'ticket', 'help']);
  });
});

describe('featureTerms', () => {
  it('adds word pairs by default and character n-grams when asked', () => {
    expect(featureTerms('printer offline')).toEqual(['printer', 'offline', 'printer_offline']);
    expect(featureTerms('wifi', { wordBigrams: false, charNgrams: [3, 4] })).toEqual(['wifi', '#<wi', '#wif', '#ifi', '#fi>', '#<wif', '#wifi', '#ifi>']);
  });
});
