import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import type { TApplication } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MSP, stubFetch } from '../../assistant/test/assistant-fixtures';
import { DocumentsPage } from './documents-page';

afterEach(() => vi.unstubAllGlobals());

/** Mantine's FileInput is a button over a hidden file input; the upload goes to that input. */
function fileInputOf(form: HTMLElement): HTMLInputElement {
  const input = form.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
}

const uploaded = (fileName: string, description: string): TApplication => ({
  id: '9a1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a77',
  fileName,
  contentType: 'text/markdown',
  sizeBytes: 2048,
  description,
  mspCustomDomain: MSP,
  chunkCount: 3,
  uploadedBy: null,
  createdAt: '2026-11-23T16:00:00.000Z',
});

describe('DocumentsPage (R-239)', () => {
  it('refuses a missing file and a file type Jarvis cannot read without calling the server', { timeout: 20_000 }, async () => {
    const calls = stubFetch({ [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications: [] } }) });
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} />);
    const form = await screen.findByRole('form', { name: 'Upload a document' });
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(await within(form).findByText(MESSAGES.documents.fileMissing)).toBeInTheDocument();
    await user.upload(fileInputOf(form), new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' }));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(await within(form).findByText(MESSAGES.documents.fileType)).toBeInTheDocument();
    expect(calls.some((call) => call.url === '/db/applications/upload')).toBe(false);
  });

  it('uploads a Markdown runbook as multipart with its description and lists it', { timeout: 20_000 }, async () => {
    let applications: TApplication[] = [];
    const calls = stubFetch({
      [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications } }),
      'POST /db/applications/upload': () => {
        applications = [uploaded('vpn-runbook.md', 'How we fix VPN drops')];
        return { status: 201, body: { application: applications[0] } };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} />);
    expect(await screen.findByText('No documents yet. Upload your runbooks and guides so Jarvis can use them.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Upload a document' });
    await user.upload(fileInputOf(form), new File(['# VPN\nRestart the client.'], 'vpn-runbook.md', { type: 'text/markdown' }));
    await user.type(within(form).getByLabelText('Description'), 'How we fix VPN drops');
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    const table = await screen.findByRole('table', { name: 'Uploaded documents' });
    expect(within(table).getByText('vpn-runbook.md')).toBeInTheDocument();
    const sent = calls.find((call) => call.url === '/db/applications/upload')?.body;
    expect(sent).toBeInstanceOf(FormData);
    const formData = sent as FormData;
    expect(formData.get('description')).toBe('How we fix VPN drops');
    expect(formData.get('mspCustomDomain')).toBe(MSP);
    expect((formData.get('file') as File).name).toBe('vpn-runbook.md');
  });
});
