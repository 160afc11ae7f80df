import { expect, type APIRequestContext } from '@playwright/test';

const CSRF = { 'x-switchboard-csrf': '1' };

export interface TJourneyMsp {
  customDomain: string;
  mspName: string;
  adminEmail: string;
  adminPassword: string;
}

/**
 * A fresh MSP with its first technician, made through the public sign-up API (A-082 → A-035), so a
 * journey that changes passwords or signs out never disturbs the demo users other journeys use.
 */
export async function createJourneyMsp(request: APIRequestContext, label: string): Promise<TJourneyMsp> {
  const suffix = `${label}-${Date.now().toString(36)}`;
  const msp: TJourneyMsp = {
    customDomain: `e2e-${suffix}`,
    mspName: `Journey ${suffix}`,
    adminEmail: `admin.${suffix}@journey-it.example`,
    adminPassword: 'Journey!Admin1',
  };
  const created = await request.post('/db/msp', {
    headers: CSRF,
    multipart: { customDomain: msp.customDomain, mspName: msp.mspName, webSiteUrl: 'https://journey-it.example', companyPhoneNumber: '2065550150' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { bootstrapToken } = (await created.json()) as { bootstrapToken: string };
  const added = await request.post(`/db/${msp.customDomain}/technicianUsers/add`, {
    headers: { ...CSRF, 'x-bootstrap-token': bootstrapToken },
    data: { firstName: 'Ada', lastName: 'Admin', phoneNumber: '2065550151', email: msp.adminEmail, password: msp.adminPassword },
  });
  expect(added.status(), await added.text()).toBe(201);
  return msp;
}
