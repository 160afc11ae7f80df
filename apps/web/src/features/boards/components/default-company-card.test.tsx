import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { DefaultCompanyCard } from './default-company-card';

const MSP = 'northwind';
const companies = [
  { id: 1, name: 'Contoso' },
  { id: 2, name: 'Fabrikam' },
];

/** A fake API: the company choices, and A-034's answer to the save as `save` says. */
function stubApi(save: 'ok' | 'refused' | 'offline') {
  const saves: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
      if (url.startsWith(`/db/${MSP}/psaTicketingConfiguration/defaultCompanyOptions`)) return json(200, { companies });
      if (url === `/db/${MSP}/addUpdatePSATicketingConfiguration`) {
        saves.push(typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined);
        if (save === 'offline') throw new TypeError('Failed to fetch');
        if (save === 'refused') return json(400, { type: 'about:blank', title: 'Bad Request', status: 400, detail: MESSAGES.boards.companyUnknown, code: 'validation', requestId: 'r1' });
        return json(200, {
          mspCustomDomain: MSP,
          psaType: 'CONNECTWISE',
          isConfigured: true,
          connectWiseConfig: { boardDetails: [], defaultCompanyId: 2, defaultCompanyName: 'Fabrikam', boardTicketSync: [], syncClientsTypeId: null },
        });
      }
      return json(404, {});
    }),
  );
  return saves;
}

async function chooseFabrikamAndSave() {
  renderWithProviders(<DefaultCompanyCard msp={MSP} psaType="CONNECTWISE" current={companies[0] ?? null} />);
  const select = screen.getByRole('combobox', { name: 'Company' });
  expect(select).toHaveValue('Contoso');
  await userEvent.click(select);
  // Mantine keeps the dropdown aria-hidden while it animates in.
  await userEvent.click(within(await screen.findByRole('listbox', { name: /Company/, hidden: true })).getByRole('option', { name: 'Fabrikam', hidden: true }));
  expect(select).toHaveValue('Fabrikam');
  await userEvent.click(screen.getByRole('button', { name: 'Set default company' }));
  return select;
}

afterEach(() => vi.unstubAllGlobals());

describe('DefaultCompanyCard (R-179–R-181)', { timeout: 30_000 }, () => {
  it('saves the chosen company through A-034 and says so', async () => {
    const saves = stubApi('ok');
    await chooseFabrikamAndSave();
    expect(await screen.findByRole('status')).toHaveTextContent(MESSAGES.boards.defaultCompanyUpdated);
    expect(saves).toEqual([{ mspCustomDomain: MSP, psaType: 'CONNECTWISE', connectWiseConfig: { defaultCompanyId: 2, defaultCompanyName: 'Fabrikam' } }]);
  });

  it('a refused save says "Failed to set default company" and shows the previous company again', async () => {
    stubApi('refused');
    const select = await chooseFabrikamAndSave();
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.boards.defaultCompanyFailed);
    expect(select).toHaveValue('Contoso');
  });

  it('a network failure says so and shows the previous company again', async () => {
    stubApi('offline');
    const select = await chooseFabrikamAndSave();
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.boards.defaultCompanyNetworkError);
    expect(select).toHaveValue('Contoso');
  });
});
