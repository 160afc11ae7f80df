import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, type TIntegrationSummary } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { ConnectPsaForm } from './connect-psa-form';

const MSP = 'fabrikam';
const SAVED: TIntegrationSummary = {
  psaType: 'AUTOTASK',
  isConfigured: true,
  companyId: null,
  psaUrl: 'https://webservices2.autotask.net',
  username: 'api-user@example.com',
  keyHint: '••••cret',
  connectWiseManageIntegrator: false,
  microsoftGraphIntegrator: false,
  emailIntegrator: false,
};

afterEach(() => vi.unstubAllGlobals());

describe('ConnectPsaForm', () => {
  // Bug: a wrong Autotask secret said "Check them under Integrations" to an admin already on Integrations (or in the wizard).
  it('says what Autotask refused and what to do on this form when the secret is wrong', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = url.split('?')[0];
        if (path === `/db/${MSP}/integrations/update`) return new Response(JSON.stringify(SAVED), { status: 200 });
        const detail = `${MESSAGES.psa.badKeys} (Autotask rejected the API username, secret or integration code.)`;
        return new Response(JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail, code: 'psa_bad_keys', requestId: 'r1' }), { status: 502 });
      }),
    );
    renderWithProviders(<ConnectPsaForm mspCustomDomain={MSP} onConnected={() => undefined} />);
    await userEvent.click(screen.getByRole('radio', { name: 'Autotask' }));
    await userEvent.type(screen.getByLabelText(/API username/), 'api-user@example.com');
    await userEvent.type(screen.getByLabelText(/^Secret/), 'wrong-secret');
    await userEvent.type(screen.getByLabelText(/Integration code/), 'CODE123');
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Autotask rejected the API username, secret or integration code. Check the keys above, correct them and press Connect again.');
    expect(alert).not.toHaveTextContent('under Integrations');
  });

  // Review s29: the check with the PSA may take many seconds; a bare spinner on Connect said nothing about why.
  it('says the keys are being checked while the PSA is asked, and not once it answered', async () => {
    let answerCheck: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = url.split('?')[0];
        if (path === `/db/${MSP}/integrations/update`) return new Response(JSON.stringify(SAVED), { status: 200 });
        return new Promise<Response>((resolve) => {
          answerCheck = resolve;
        });
      }),
    );
    const onConnected = vi.fn();
    renderWithProviders(<ConnectPsaForm mspCustomDomain={MSP} onConnected={onConnected} />);
    await userEvent.click(screen.getByRole('radio', { name: 'Autotask' }));
    await userEvent.type(screen.getByLabelText(/API username/), 'api-user@example.com');
    await userEvent.type(screen.getByLabelText(/^Secret/), 'secret');
    await userEvent.type(screen.getByLabelText(/Integration code/), 'CODE123');
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(MESSAGES.psa.keyCheckWaiting)).toBeInTheDocument();
    answerCheck(new Response(JSON.stringify({ ...SAVED, connectWiseManageIntegrator: true, boardCount: 2 }), { status: 200 }));
    await vi.waitFor(() => expect(onConnected).toHaveBeenCalledWith(2));
    await vi.waitFor(() => expect(screen.queryByText(MESSAGES.psa.keyCheckWaiting)).not.toBeInTheDocument());
  }, 15_000);

  // Decision 042: keys for another PSA start the MSP's PSA data over, so the admin is warned before anything is saved.
  describe('keys for another PSA than the one the data came from', () => {
    const DATA_PSA = { connection: 'CONNECTWISE na.myconnectwise.net northwind', label: 'ConnectWise at na.myconnectwise.net, company northwind' };

    function stubSave() {
      const fetchMock = vi.fn(async (url: string) => {
        const path = url.split('?')[0];
        if (path === `/db/${MSP}/integrations/update`) return new Response(JSON.stringify({ ...SAVED, psaType: 'CONNECTWISE', companyId: 'northwind' }), { status: 200 });
        return new Response(JSON.stringify({ ...SAVED, boardCount: 3 }), { status: 200 });
      });
      vi.stubGlobal('fetch', fetchMock);
      return fetchMock;
    }

    async function typeConnectWise(site: string, companyId: string) {
      await userEvent.type(screen.getByLabelText(/Company ID/), companyId);
      await userEvent.type(screen.getByLabelText(/Site URL/), site);
      await userEvent.type(screen.getByLabelText(/Public key/), 'PublicKey1');
      await userEvent.type(screen.getByLabelText(/Private key/), 'PrivateKey2');
      await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    }

    it('asks before saving keys for another ConnectWise site, and Cancel saves nothing', async () => {
      const fetchMock = stubSave();
      renderWithProviders(<ConnectPsaForm mspCustomDomain={MSP} dataPsa={DATA_PSA} onConnected={() => undefined} />);
      await typeConnectWise('https://eu.myconnectwise.net', 'northwind');
      const dialog = await screen.findByRole('dialog', { name: MESSAGES.psa.startOverTitle });
      expect(dialog).toHaveTextContent(MESSAGES.psa.startOverText(DATA_PSA.label));
      await userEvent.click(screen.getByRole('button', { name: MESSAGES.psa.startOverCancel }));
      await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: MESSAGES.psa.startOverTitle })).not.toBeInTheDocument());
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('saves after "Connect and start over"', async () => {
      const fetchMock = stubSave();
      const onConnected = vi.fn();
      renderWithProviders(<ConnectPsaForm mspCustomDomain={MSP} dataPsa={DATA_PSA} onConnected={onConnected} />);
      await userEvent.click(screen.getByRole('radio', { name: 'Autotask' }));
      await userEvent.type(screen.getByLabelText(/API username/), 'api-user@example.com');
      await userEvent.type(screen.getByLabelText(/^Secret/), 'secret');
      await userEvent.type(screen.getByLabelText(/Integration code/), 'CODE123');
      await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
      await userEvent.click(await screen.findByRole('button', { name: MESSAGES.psa.startOverConfirm }));
      await vi.waitFor(() => expect(onConnected).toHaveBeenCalledWith(3));
      expect(fetchMock.mock.calls.map(([url]) => String(url).split('?')[0])).toContain(`/db/${MSP}/integrations/update`);
    });

    it('does not ask for the same site (another case, a trailing slash, new keys)', async () => {
      const fetchMock = stubSave();
      const onConnected = vi.fn();
      renderWithProviders(<ConnectPsaForm mspCustomDomain={MSP} dataPsa={DATA_PSA} onConnected={onConnected} />);
      await typeConnectWise('NA.myconnectwise.net/', 'Northwind');
      await vi.waitFor(() => expect(onConnected).toHaveBeenCalledWith(3));
      expect(screen.queryByRole('dialog', { name: MESSAGES.psa.startOverTitle })).not.toBeInTheDocument();
      expect(fetchMock).toHaveBeenCalled();
    });

    it('does not ask when no data is tied to a PSA', async () => {
      stubSave();
      const onConnected = vi.fn();
      renderWithProviders(<ConnectPsaForm mspCustomDomain={MSP} onConnected={onConnected} />);
      await typeConnectWise('https://eu.myconnectwise.net', 'northwind');
      await vi.waitFor(() => expect(onConnected).toHaveBeenCalledWith(3));
    });
  });
});
