import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LOGO_MAX_BYTES, MESSAGES, type TMspProfile } from '@switchboard/contracts';
import { mspProfileKeys } from '../../../app/brand/msp-profile-queries';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { LogoCard } from './logo-card';

const MSP = 'northwind';
const PROFILE: TMspProfile = {
  mspName: 'Northwind IT Partners',
  customDomain: MSP,
  companyPhoneNumber: '7205550100',
  webSiteUrl: 'https://www.northwind-it.example',
  logoUrl: null,
  brand: { primaryColour: '#e03131', primaryButtonColour: '#e03131', secondaryButtonColour: '#e03131' },
};

/** Mantine's FileInput is a button over a hidden file input; a chosen file goes to that input. */
const fileInput = () => {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
};

afterEach(() => vi.unstubAllGlobals());

// Bug: the brand logo could be set only at sign-up; the branding screen had no way to change it.
describe('LogoCard', () => {
  it('refuses a file that is too large or not an image in plain words, previews a good one and shows it as the logo once saved', async () => {
    const posts: FormData[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => undefined }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url === `/db/${MSP}/branding/logo` && init.body instanceof FormData) {
          posts.push(init.body);
          return new Response(JSON.stringify({ ...PROFILE, logoUrl: `/db/msp/${MSP}/logo?v=2` }), { status: 200 });
        }
        return new Response(JSON.stringify(PROFILE), { status: 200 });
      }),
    );
    const { queryClient } = renderWithProviders(<LogoCard mspCustomDomain={MSP} mspName="Northwind IT Partners" />);
    expect(await screen.findByText(/No logo yet/)).toBeInTheDocument();

    await userEvent.upload(fileInput(), new File([new Uint8Array(LOGO_MAX_BYTES + 1)], 'huge.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.fileSize);
    expect(screen.getByRole('button', { name: 'Save logo' })).toBeDisabled();
    await userEvent.upload(fileInput(), new File(['hello'], 'notes.txt', { type: 'text/plain' }), { applyAccept: false });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.fileType);

    await userEvent.upload(fileInput(), new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Preview of the new logo' })).toHaveAttribute('src', 'blob:preview');
    await userEvent.click(screen.getByRole('button', { name: 'Save logo' }));

    expect(await screen.findByRole('img', { name: 'Northwind IT Partners logo' })).toHaveAttribute('src', `/db/msp/${MSP}/logo?v=2`);
    expect(posts).toHaveLength(1);
    expect((posts[0]?.get('file') as File | null)?.name).toBe('logo.png');
    // The header reads the same profile: it now names the new logo.
    await waitFor(() => expect(queryClient.getQueryData<TMspProfile>(mspProfileKeys.byDomain(MSP))?.logoUrl).toBe(`/db/msp/${MSP}/logo?v=2`));
    expect(screen.queryByRole('img', { name: 'Preview of the new logo' })).not.toBeInTheDocument();
  });
});
