import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TMspBrand, TMspProfile } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { BrandingScreen } from './branding-screen';

const MSP = 'northwind';
const SAVED: TMspBrand = { primaryColour: '#1c7ed6', primaryButtonColour: '#0b7285', secondaryButtonColour: '#5f3dc4' };
const PROFILE: TMspProfile = { mspName: 'Northwind IT Partners', customDomain: MSP, companyPhoneNumber: '7205550100', webSiteUrl: 'https://www.northwind-it.example', logoUrl: null, brand: SAVED };
const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });

/** A fake API whose saved colours answer only when `answerBranding` is called; the posts are kept. */
function stubBrandingApi(brandingAnswer: () => Response) {
  const posts: unknown[] = [];
  let answerBranding = () => undefined as void;
  const brandingRead = new Promise<Response>((resolve) => {
    answerBranding = () => resolve(brandingAnswer());
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url === `/db/${MSP}/branding` && init.method === 'POST' && typeof init.body === 'string') {
        const brand = JSON.parse(init.body) as unknown;
        posts.push(brand);
        return json(200, brand);
      }
      if (url === `/db/${MSP}/branding`) return brandingRead;
      return json(200, PROFILE);
    }),
  );
  return { posts, answerBranding: () => answerBranding() };
}

afterEach(() => vi.unstubAllGlobals());

// Bug: the form showed the default red while the saved colours loaded (or after they failed to load), and
// "Save branding" sent that red, replacing the MSP's own colours.
describe('BrandingScreen', { timeout: 30_000 }, () => {
  it('shows no default pickers and cannot save while the saved colours load, then shows the saved colours', async () => {
    const api = stubBrandingApi(() => json(200, SAVED));
    renderWithProviders(<BrandingScreen mspCustomDomain={MSP} mspName="Northwind IT Partners" />);
    expect(screen.getByLabelText('Loading your colours')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save branding' })).toBeDisabled();
    expect(screen.queryByLabelText('Primary colour')).not.toBeInTheDocument();

    api.answerBranding();
    expect(await screen.findByLabelText('Primary colour')).toHaveValue('#1c7ed6');
    expect(screen.getByLabelText('Primary button colour')).toHaveValue('#0b7285');
    expect(screen.getByLabelText('Secondary button colour')).toHaveValue('#5f3dc4');
    expect(screen.queryByLabelText('Loading your colours')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save branding' })).toBeEnabled();
    expect(api.posts).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Save branding' }));
    await waitFor(() => expect(api.posts).toEqual([SAVED]));
  });

  it('says in plain words when the saved colours cannot be loaded, and offers no save', async () => {
    const api = stubBrandingApi(() => json(503, { type: 'about:blank', title: 'Unavailable', status: 503, detail: 'The database is busy.', code: 'unavailable', requestId: 'r' }));
    renderWithProviders(<BrandingScreen mspCustomDomain={MSP} mspName="Northwind IT Partners" />);
    api.answerBranding();
    expect(await screen.findByRole('alert', { name: 'Your colours could not be loaded' })).toHaveTextContent('The database is busy.');
    expect(screen.queryByLabelText('Primary colour')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save branding' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Back to the default red' })).toBeDisabled();
  });
});
