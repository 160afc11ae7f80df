import { describe, expect, it } from 'vitest';
import { newEmployeeLine } from './ticket-create.service';

const blank = { newFirstName: '', newLastName: '', newEmail: '', newPhone: '', ownerEmail: '', licence: 'E3' };

// Regression (visual review s27): a ticket whose onboarding fields were empty read
// "New employee:  , email , phone , owner , licence E3".
describe('newEmployeeLine (the new employee in a ticket description, R-268)', () => {
  it('names only the fields that have values', () => {
    expect(newEmployeeLine({ ...blank, newFirstName: 'Ana', newLastName: 'Silva', newEmail: 'ana@example.com' })).toBe('New employee: Ana Silva, email ana@example.com, licence E3');
    expect(newEmployeeLine({ ...blank, newLastName: 'Silva', ownerEmail: ' boss@example.com ', licence: 'E5' })).toBe('New employee: Silva, owner boss@example.com, licence E5');
    expect(newEmployeeLine({ newFirstName: 'Ana', newLastName: 'Silva', newEmail: 'ana@example.com', newPhone: '5551234567', ownerEmail: 'boss@example.com', licence: 'E3' })).toBe(
      'New employee: Ana Silva, email ana@example.com, phone 5551234567, owner boss@example.com, licence E3',
    );
  });

  it('is left out when no field about the person has a value (the default licence alone says nothing)', () => {
    expect(newEmployeeLine(blank)).toBeNull();
    expect(newEmployeeLine({ ...blank, newFirstName: ' ', licence: '' })).toBeNull();
    expect(newEmployeeLine(null)).toBeNull();
    expect(newEmployeeLine(undefined)).toBeNull();
  });
});
