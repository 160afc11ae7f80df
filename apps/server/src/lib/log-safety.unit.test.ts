import { describe, expect, it } from 'vitest';
import { safeErrorForLog, scrubForLog } from './log-safety';

describe('log safety (issue #11: no parameters or personal data in logs)', () => {
  it('logs a failed query without its parameters, addresses or token hashes', () => {
    const tokenHash = 'a3f19c0b7e5d42a8916b0c3e7f2d5a4b8c1e6f9a0b3d7c2e5f8a1b4c7d0e3f6a';
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "users_msp_email_uq"'), {
      code: '23505',
      constraint: 'users_msp_email_uq',
      table: 'users',
      detail: 'Key (msp_id, lower(email))=(6c1e…, dana@acme.example) already exists.',
    });
    const queryError = Object.assign(new Error(`Failed query: insert into "users" ("email", "session") values ($1, $2)\nparams: dana@acme.example,${tokenHash}`, { cause: driverError }), {
      name: 'DrizzleQueryError',
      query: 'insert into "users" ("email", "session") values ($1, $2)',
      params: ['dana@acme.example', tokenHash],
    });
    const logged = JSON.stringify(safeErrorForLog(queryError));
    expect(logged).not.toContain('dana@acme.example');
    expect(logged).not.toContain(tokenHash);
    expect(logged).toContain('users_msp_email_uq');
    expect(logged).toContain('23505');
    expect(logged).toContain('insert into \\"users\\"');
  });

  // Regression: a base64url secret that starts or ends with "-" has no word boundary there, so about 3 % of the PSA
  // webhook route tokens (/psa/events/{mspId}.{secret}) were logged in clear with every event's request line.
  it('removes a token that starts or ends with a dash, as in a webhook route', () => {
    const secret = '-Jb0Yp1k0uQhW3m8oO8s4m0C1sJx3Xr2';
    const route = `/psa/events/0b6c1f7e-8a8d-4c55-9d0e-1f2a3b4c5d6e.${secret}`;
    expect(scrubForLog(`incoming request POST ${route}`)).not.toContain(secret.slice(1));
    expect(scrubForLog(`token Jb0Yp1k0uQhW3m8oO8s4m0C1sJx3Xr2d6f- expired`)).toBe('token [token] expired');
  });

  it('removes addresses, tokens and six-digit codes from free text, keeping the rest', () => {
    expect(scrubForLog("Can't send mail - all recipients were rejected: 550 <bob@client.example> 123456")).toBe("Can't send mail - all recipients were rejected: 550 <[email]> [digits]");
    expect(scrubForLog('token Jb0Yp1k0uQhW3m8oO8s4m0C1sJx3Xr2d6f9Kq8Gm0vE expired')).toBe('token [token] expired');
    expect(scrubForLog('connect ECONNREFUSED 127.0.0.1:5432')).toBe('connect ECONNREFUSED 127.0.0.1:5432');
  });
});
