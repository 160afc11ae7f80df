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
});
