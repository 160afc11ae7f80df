import { expect } from 'vitest';
import { TestClient, type TTestApp } from '../../../test/test-app';
import type { TTestMsp, TTestUser } from '../../../test/factories';

let ipCounter = 0;
/** A fresh client address per use, so the per-IP limits of one test never trip another. */
export const nextIp = (): string => {
  ipCounter += 1;
  return `10.${Math.floor(ipCounter / 65536) % 256}.${Math.floor(ipCounter / 256) % 256}.${ipCounter % 256}`;
};

export const newClient = (t: TTestApp): TestClient => new TestClient(t.app, nextIp());

export const collectionOf = (user: TTestUser): 'technicianUsers' | 'clientUsers' => (user.kind === 'technician' ? 'technicianUsers' : 'clientUsers');

/** The newest mail to an address, read through the dev outbox like a person would. */
export async function latestMail(t: TTestApp, email: string, subject: string): Promise<{ text: string } | undefined> {
  const response = await newClient(t).get(`/dev/outbox?to=${encodeURIComponent(email)}`);
  const items = response.json<{ items: Array<{ subject: string; text: string }> }>().items;
  return items.find((item) => item.subject === subject);
}

/** The 6-digit code on its own line of the newest mail with that subject. */
export async function latestCode(t: TTestApp, email: string, subject = 'Your Switchboard verification code'): Promise<string> {
  const mail = await latestMail(t, email, subject);
  const code = mail?.text.split('\n').find((line) => /^\d{6}$/.test(line));
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** The password step; returns the challenge id. */
export async function passwordStep(t: TTestApp, client: TestClient, msp: TTestMsp, user: TTestUser): Promise<string> {
  const response = await client.post(`/db/${msp.customDomain}/${collectionOf(user)}/signin`, { emailId: user.email, password: user.password });
  expect(response.statusCode).toBe(200);
  return response.json<{ challengeId: string }>().challengeId;
}

/** Email → password → mailed code → session, all through the API. */
export async function signInThroughApi(t: TTestApp, msp: TTestMsp, user: TTestUser): Promise<TestClient> {
  const client = newClient(t);
  const challengeId = await passwordStep(t, client, msp, user);
  const code = await latestCode(t, user.email);
  const verified = await client.post(`/db/${msp.customDomain}/${collectionOf(user)}/verifyCode`, { challengeId, code });
  expect(verified.statusCode).toBe(200);
  return client;
}
