import { describe, expect, it } from 'vitest';
import { parseNextLink } from './paging';

describe('parseNextLink', () => {
  it('finds rel="next" among the other relations', () => {
    const header =
      '<https://h/v4_6_release/apis/3.0/company/contacts?page=1&pageSize=1000>; rel="first", <https://h/v4_6_release/apis/3.0/company/contacts?page=3&pageSize=1000>; rel="next", <https://h/x?page=9>; rel="last"';
    expect(parseNextLink(header)).toBe('https://h/v4_6_release/apis/3.0/company/contacts?page=3&pageSize=1000');
  });

  it('returns null on the last page or without a header', () => {
    expect(parseNextLink('<https://h/x?page=1>; rel="first", <https://h/x?page=2>; rel="prev"')).toBeNull();
    expect(parseNextLink(null)).toBeNull();
  });

  it('keeps commas inside the URL', () => {
    expect(parseNextLink('<https://h/x?fields=id,name&page=2>; rel="next"')).toBe('https://h/x?fields=id,name&page=2');
  });
});
