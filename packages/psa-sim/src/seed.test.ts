import { describe, expect, it } from 'vitest';
import { demoDirectory } from './seed';

describe('demoDirectory', () => {
  it('numbers contacts from 1 in file order and keeps company and technician ids', () => {
    const directory = demoDirectory();
    expect(directory.companies).toHaveLength(24);
    expect(directory.companies[0]).toMatchObject({ id: 1, name: 'Brightwater Family Dental', identifier: 'BWFD' });
    expect(directory.contacts).toHaveLength(178);
    expect(directory.contacts[0]).toMatchObject({ id: 1, companyId: 1, firstName: 'Helen', lastName: 'Marchetti' });
    expect(directory.contacts.map((contact) => contact.id)).toEqual(directory.contacts.map((_, index) => index + 1));
    expect(directory.members[0]).toMatchObject({ id: 1, identifier: 'javila', tier: 'Tier1' });
  });
});
