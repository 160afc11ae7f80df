import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages';
import { newEmployeeProblems } from '../validation-employee';

describe('newEmployeeProblems (01 §5)', () => {
  const good = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phoneNumber: '(303) 555-0100', password: 'Passw0rd!' };

  it('accepts a complete form', () => {
    expect(newEmployeeProblems(good)).toEqual({});
  });

  it('gives each of the four spec messages for its field', () => {
    expect(newEmployeeProblems({ firstName: ' ', lastName: '', email: 'ada@', phoneNumber: '123', password: 'password' })).toEqual({
      names: MESSAGES.employee.names,
      email: MESSAGES.employee.email,
      phoneNumber: MESSAGES.employee.phone,
      password: MESSAGES.employee.password,
    });
    expect(newEmployeeProblems({ ...good, lastName: '' })).toEqual({ names: MESSAGES.employee.names });
    expect(newEmployeeProblems({ ...good, password: 'Password1' })).toEqual({ password: MESSAGES.employee.password });
  });
});
