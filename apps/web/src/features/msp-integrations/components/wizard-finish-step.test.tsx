import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { WizardFinishStep } from './wizard-finish-step';

const MSP = 'northwind';
const TYPES = [
  { id: 4, name: 'Vendor' },
  { id: 7, name: 'Managed Services Client' },
];

/**
 * The finish step's API, played by the test: the company types answer as the test says, each call in turn;
 * succeed.
 */
function stubApi(typeAnswers: Array<() => Promise<Response>>) {
  const calls: string[] = [];
  let typeReads = 0;
  const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      const path = url.split('?')[0];
      if (path === '/psa/getCompanyTypes') {
        const answer = typeAnswers[Math.min(typeReads, typeAnswers.length - 1)];
        typeReads += 1;
        if (!answer) throw new Error('no company types answer');
        return answer();
      }
      if (path === `/db/${MSP}/updateClientSync`) return json(200, { syncClientsTypeId: 7, syncClientsTypeName: 'Managed Services Client' });
      if (path === '/psa/syncClientsContacts') return json(200, { companies: 12, contacts: 40 });
      return json(404, { status: 404, title: 'Not Found', detail: `unexpected ${path}`, code: 'not_found' });
    }),
  );
  return calls;
}

const ok = (payload: unknown) => () => Promise.resolve(new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } }));
const failed = () => Promise.resolve(new Response(JSON.stringify({ status: 502, title: 'Bad Gateway', detail: MESSAGES.psa.unavailable, code: 'psa_unavailable' }), { status: 502, headers: { 'content-type': 'application/problem+json' } }));

afterEach(() => vi.unstubAllGlobals());

// Review finding 1 (regression): while the company types loaded, or after their load failed, Finish sent no type, so
// A-042 was skipped and A-043 copied every PSA company and contact, vendors and prospects included.
describe('WizardFinishStep', { timeout: 15_000 }, () => {
  it('keeps Finish disabled while the company types load', async () => {
    let answer: (response: Response) => void = () => undefined;
    const calls = stubApi([() => new Promise<Response>((resolve) => (answer = resolve))]);
    const onComplete = vi.fn();
    renderWithProviders(<WizardFinishStep mspCustomDomain={MSP} onComplete={onComplete} isCompleting={false} />);
    const finish = await screen.findByRole('button', { name: 'Finish setup' });
    expect(finish).toBeDisabled();
    await userEvent.click(finish);
    expect(calls.some((url) => url.startsWith('/psa/syncClientsContacts'))).toBe(false);

    answer(new Response(JSON.stringify(TYPES), { status: 200, headers: { 'content-type': 'application/json' } }));
    await vi.waitFor(() => expect(screen.getByRole('combobox', { name: 'Client company type' })).toHaveValue('7'));
    expect(screen.getByRole('button', { name: 'Finish setup' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Finish setup' }));
    await vi.waitFor(() => expect(onComplete).toHaveBeenCalled());
    expect(calls.find((url) => url.startsWith(`/db/${MSP}/updateClientSync`))).toContain('clientTypeId=7');
  });

  it('shows why the company types did not load, with Try again; Finish stays off until they load', async () => {
    const calls = stubApi([failed, ok(TYPES)]);
    renderWithProviders(<WizardFinishStep mspCustomDomain={MSP} onComplete={vi.fn()} isCompleting={false} />);
    expect(await screen.findByText(MESSAGES.psa.unavailable, { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Finish setup' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(screen.getByRole('combobox', { name: 'Client company type' })).toHaveValue('7'));
    expect(screen.getByRole('button', { name: 'Finish setup' })).toBeEnabled();
    expect(screen.queryByText(MESSAGES.psa.unavailable, { exact: false })).not.toBeInTheDocument();
    expect(calls.filter((url) => url.startsWith('/psa/syncClientsContacts'))).toEqual([]);
  });

  it('a PSA without company types finishes without a type: A-043 copies what the PSA has', async () => {
    const calls = stubApi([ok([])]);
    const onComplete = vi.fn();
    renderWithProviders(<WizardFinishStep mspCustomDomain={MSP} onComplete={onComplete} isCompleting={false} />);
    expect(await screen.findByText('No company types in the PSA')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Finish setup' }));
    await vi.waitFor(() => expect(onComplete).toHaveBeenCalled());
    expect(calls.some((url) => url.startsWith(`/db/${MSP}/updateClientSync`))).toBe(false);
    expect(calls.some((url) => url.startsWith('/psa/syncClientsContacts'))).toBe(true);
  });
});
