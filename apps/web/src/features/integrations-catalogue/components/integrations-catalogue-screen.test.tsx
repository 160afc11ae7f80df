import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CLIENT_CATALOGUE, type TCompany, type TCompanyPage } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MSP, stubFetch } from '../../assistant/test/assistant-fixtures';
import { IntegrationsCatalogueScreen } from './integrations-catalogue-screen';

afterEach(() => vi.unstubAllGlobals());

const BRIGHTWATER: TCompany = { id: '5d0c2a0e-8f6b-4d84-9d7e-1f3a2b4c5d6e', psaCompanyId: '19', psaType: 'CONNECTWISE', name: 'Brightwater Family Dental', identifier: null, psaClientType: [], phone: null, website: null, city: null, isActive: true };
const COMPANIES: TCompanyPage = { items: [BRIGHTWATER], total: 1, page: 1, pageSize: 30, clientTypes: [] };

const card = (name: string) => screen.getByRole('article', { name });

describe('IntegrationsCatalogueScreen (R-232–R-238)', { timeout: 30_000 }, () => {
  it('shows each MSP card with its category and whether it is available; the PSA cards lead to the integration screen', async () => {
    stubFetch({ [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }) });
    const onOpenIntegration = vi.fn();
    renderWithProviders(<IntegrationsCatalogueScreen mspCustomDomain={MSP} onOpenIntegration={onOpenIntegration} />);
    for (const name of ['ConnectWise', 'Autotask', 'OpenAI', 'Claude']) expect(within(card(name)).getByText('Available')).toBeInTheDocument();
    const comingSoon = ['ITGlue', 'Liongard', 'ConnectWise Automate', 'N-able', 'N-central', 'Datto RMM', 'Ninja One', 'Kaseya VSA', 'ScreenConnect', 'Halo', 'BMS', 'Auvik', 'Rewst', 'Office 365', 'Google Workspace'];
    for (const name of comingSoon) expect(within(card(name)).getByText('Coming soon')).toBeInTheDocument();
    expect(within(card('ITGlue')).getByText('DOC')).toBeInTheDocument();
    expect(within(card('Kaseya VSA')).getByText('RMM')).toBeInTheDocument();
    expect(within(card('Office 365')).getByText('Suite')).toBeInTheDocument();
    await userEvent.click(within(card('Autotask')).getByRole('button', { name: 'Set up' }));
    expect(onOpenIntegration).toHaveBeenCalledTimes(1);
  });

  it('shows the chosen client company\'s cards (A-005)', async () => {
    const calls = stubFetch({
      [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }),
      [`GET /db/${MSP}/clientIntegrations/client`]: () => ({ status: 200, body: { clientId: BRIGHTWATER.id, companyName: BRIGHTWATER.name, cards: CLIENT_CATALOGUE } }),
    });
    renderWithProviders(<IntegrationsCatalogueScreen mspCustomDomain={MSP} />);
    await userEvent.click(screen.getByRole('combobox', { name: 'Client company' }));
    await userEvent.click(await screen.findByRole('option', { name: BRIGHTWATER.name, hidden: true }));
    const cards = await screen.findByLabelText(`Integrations of ${BRIGHTWATER.name}`);
    expect(within(cards).getAllByRole('article').map((article) => article.getAttribute('aria-label'))).toEqual(['Office 365', 'Google Workspace']);
    expect(calls.some((call) => call.url.includes(`/clientIntegrations/client?clientId=${BRIGHTWATER.id}`))).toBe(true);
  });

  // Bug: when the companies could not be read (a 403 for a role with Client integrations alone), the selector just
  // stayed empty with nothing said.
  it('says so when the client companies cannot be loaded', async () => {
    stubFetch({ [`GET /db/${MSP}/psaClients`]: () => ({ status: 403, body: { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'You do not have permission to do that.', code: 'forbidden', requestId: 'r' } }) });
    renderWithProviders(<IntegrationsCatalogueScreen mspCustomDomain={MSP} />);
    expect(await screen.findByText('The client companies could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('You do not have permission to do that.')).toBeInTheDocument();
  });

  // Regression (visual review s27): a connected ConnectWise and the configured Claude model read "Available / Set up".
  it('shows the connected PSA and the configured AI model as Connected, with Manage', async () => {
    const summary = { psaType: 'CONNECTWISE', isConfigured: true, companyId: 'northwind', psaUrl: 'https://na.myconnectwise.net', username: null, keyHint: '…abcd', connectWiseManageIntegrator: true, microsoftGraphIntegrator: false, emailIntegrator: false };
    const llm = { isConfigured: true, provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: null, embeddingModel: null, keyHint: 'wxyz', updatedAt: '2026-11-20T10:00:00Z' };
    stubFetch({
      [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }),
      [`GET /db/${MSP}/integrations`]: () => ({ status: 200, body: summary }),
      [`GET /db/${MSP}/llm-provider`]: () => ({ status: 200, body: llm }),
    });
    const onOpenIntegration = vi.fn();
    renderWithProviders(<IntegrationsCatalogueScreen mspCustomDomain={MSP} onOpenIntegration={onOpenIntegration} canManageAiModel />);
    expect(await within(card('ConnectWise')).findByText('Connected')).toBeInTheDocument();
    expect(await within(card('Claude')).findByText('Connected')).toBeInTheDocument();
    expect(within(card('ConnectWise')).queryByText('Available')).not.toBeInTheDocument();
    expect(within(card('ConnectWise')).queryByRole('button', { name: 'Set up' })).not.toBeInTheDocument();
    // The others stay available to set up.
    expect(within(card('Autotask')).getByText('Available')).toBeInTheDocument();
    expect(within(card('OpenAI')).getByRole('button', { name: 'Set up' })).toBeInTheDocument();
    expect(within(card('Claude')).getByRole('button', { name: 'Manage' })).toBeInTheDocument();
    await userEvent.click(within(card('ConnectWise')).getByRole('button', { name: 'Manage' }));
    expect(onOpenIntegration).toHaveBeenCalledTimes(1);
  });
});
