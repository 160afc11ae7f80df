import { describe, expect, it } from 'vitest';
import { isLoginToDashboard, mspFromPath, showsRouteProgress } from './route-progress';

describe('showsRouteProgress (R-034)', () => {
  it.each(['/auth/login', '/auth/login/tech', '/auth/signup', '/northwind', '/northwind/forgot', '/northwind/forgot/verification', '/northwind/forgot/verification/createpassword', '/northwind/activate', '/public', '/public/northwind', '/public/signup'])(
    'shows no indicator going to %s',
    (path) => expect(showsRouteProgress(path)).toBe(false),
  );

  it.each(['/northwind/dashboard/1/tickets', '/dashboard/1', '/admin', '/public/dashboard'])('shows the indicator going to %s', (path) => {
    expect(showsRouteProgress(path)).toBe(true);
  });
});

describe('mspFromPath', () => {
  it('reads the MSP from a one-segment or MSP path and not from literal routes', () => {
    expect(mspFromPath('/northwind/dashboard/1')).toBe('northwind');
    expect(mspFromPath('/admin')).toBeNull();
    expect(mspFromPath('/auth/login')).toBeNull();
    expect(mspFromPath('/')).toBeNull();
  });
});

describe('isLoginToDashboard (R-035)', () => {
  it('is true from a login screen to a dashboard only', () => {
    expect(isLoginToDashboard('/auth/login/tech', '/northwind/dashboard/1/tickets')).toBe(true);
    expect(isLoginToDashboard('/northwind', '/northwind/dashboard/1/tickets')).toBe(true);
    expect(isLoginToDashboard('/auth/login', '/dashboard/1')).toBe(true);
    expect(isLoginToDashboard('/northwind/dashboard/1', '/northwind/dashboard/1/tickets')).toBe(false);
    expect(isLoginToDashboard('/auth/login/tech', '/northwind/forgot')).toBe(false);
  });
});
