import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
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

const uploaded = (fileName: string, description: string, extra: Partial<TApplication> = {}): TApplication => ({
  id: '9a1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a77',
  fileName,
  contentType: 'text/markdown',
  sizeBytes: 2048,
  description,
  mspCustomDomain: MSP,
  chunkCount: 3,
  uploadedBy: null,
  createdAt: '2026-11-23T16:00:00.000Z',
  canDelete: true,
  audience: 'technicians',
  ...extra,
});

describe('DocumentsPage (R-239)', () => {
  it('refuses a missing file and a file type Jarvis cannot read without calling the server', { timeout: 20_000 }, async () => {
    const calls = stubFetch({ [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications: [] } }) });
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} canChooseAudience />);
    const form = await screen.findByRole('form', { name: 'Upload a document' });
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(await within(form).findByText(MESSAGES.documents.fileMissing)).toBeInTheDocument();
    await user.upload(fileInputOf(form), new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' }));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(await within(form).findByText(MESSAGES.documents.fileType)).toBeInTheDocument();
    expect(calls.some((call) => call.url === '/db/applications/upload')).toBe(false);
  });

  it('says an empty file is empty without calling the server (it said "Please choose a file to upload.")', { timeout: 20_000 }, async () => {
    const calls = stubFetch({ [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications: [] } }) });
    const user = userEvent.setup();
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} canChooseAudience />);
    const form = await screen.findByRole('form', { name: 'Upload a document' });
    await user.upload(fileInputOf(form), new File([], 'notes.md', { type: 'text/markdown' }));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(await within(form).findByText(MESSAGES.documents.fileEmpty)).toBeInTheDocument();
    expect(calls.some((call) => call.url === '/db/applications/upload')).toBe(false);
  });

  it('uploads a Markdown runbook as multipart with its description and lists it', { timeout: 20_000 }, async () => {
    let applications: TApplication[] = [];
    const calls = stubFetch({
      [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications } }),
      'POST /db/applications/upload': () => {
        applications = [uploaded('vpn-runbook.md', 'How we fix VPN drops', { audience: 'everyone' })];
        return { status: 201, body: { application: applications[0] } };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} canChooseAudience />);
    expect(await screen.findByText('No documents yet. Upload your runbooks and guides so Jarvis can use them.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Upload a document' });
    await user.upload(fileInputOf(form), new File(['# VPN\nRestart the client.'], 'vpn-runbook.md', { type: 'text/markdown' }));
    await user.type(within(form).getByLabelText('Description'), 'How we fix VPN drops');
    // A technician's runbook is for technicians unless they share it (decision 034).
    const readers = within(form).getByRole('radiogroup', { name: 'Who can read it' });
    expect(within(readers).getByRole('radio', { name: 'Technicians only' })).toBeChecked();
    await user.click(within(readers).getByRole('radio', { name: 'Technicians and client users' }));
    expect(within(readers).getByRole('radio', { name: 'Technicians and client users' })).toBeChecked();
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    const table = await screen.findByRole('table', { name: 'Uploaded documents' });
    expect(within(table).getByText('vpn-runbook.md')).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /vpn-runbook\.md/ })).toHaveTextContent('Technicians and client users');
    const sent = calls.find((call) => call.url === '/db/applications/upload')?.body;
    expect(sent).toBeInstanceOf(FormData);
    const formData = sent as FormData;
    expect(formData.get('description')).toBe('How we fix VPN drops');
    expect(formData.get('mspCustomDomain')).toBe(MSP);
    expect((formData.get('file') as File).name).toBe('vpn-runbook.md');
    expect(formData.get('audience')).toBe('everyone');
  });

  it('lets a technician change who reads a listed document, and shows the answer', { timeout: 20_000 }, async () => {
    let document = uploaded('vpn-runbook.md', 'How we fix VPN drops');
    const calls = stubFetch({
      [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications: [document] } }),
      [`PUT /db/${MSP}/applications/${document.id}/readers`]: () => {
        document = { ...document, audience: 'everyone' };
        return { status: 200, body: { application: document } };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} canChooseAudience />);
    const readers = await screen.findByRole('combobox', { name: 'Readers of vpn-runbook.md' });
    expect(readers).toHaveValue('technicians');
    await user.selectOptions(readers, 'Technicians and client users');
    expect(await screen.findByText('Readers changed')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Readers of vpn-runbook.md' })).toHaveValue('everyone'));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ audience: 'everyone' });
  });

  it("offers a client user no choice of readers: their upload is for their company's people and technicians", { timeout: 20_000 }, async () => {
    stubFetch({ [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications: [uploaded('printer.md', 'Our printer', { audience: 'everyone' })] } }) });
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} canChooseAudience={false} />);
    const table = await screen.findByRole('table', { name: 'Uploaded documents' });
    expect(within(table).getByRole('row', { name: /printer\.md/ })).toHaveTextContent('Technicians and client users');
    expect(screen.queryByRole('radiogroup', { name: 'Who can read it' })).not.toBeInTheDocument();
  });

  // Review s29 #4: a client read the technicians' "Upload your runbooks and guides…" and the whole Knowledge Base again
  // below their documents (it is in their ticket area).
  it('tells a client user whose their uploads are, in their words, without the Knowledge Base below', { timeout: 20_000 }, async () => {
    stubFetch({ [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications: [] } }) });
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} canChooseAudience={false} isForClient />);
    expect(await screen.findByText('No documents yet.')).toBeInTheDocument();
    expect(screen.queryByText(/runbooks/)).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Knowledge Base' })).not.toBeInTheDocument();
    expect(screen.getByText(MESSAGES.documents.clientIntro)).toBeInTheDocument();
  });

  it('links each document to its download, and deletes one after confirmation; a shared one a client may not delete has no Delete button', { timeout: 20_000 }, async () => {
    const own = uploaded('vpn-runbook.md', 'How we fix VPN drops');
    const shared = uploaded('wifi-guide.pdf', 'Shared guide', { id: '1b2c3d4e-5f60-4718-9a0b-1c2d3e4f5a6b', canDelete: false });
    let applications: TApplication[] = [own, shared];
    const calls = stubFetch({
      [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications } }),
      [`DELETE /db/${MSP}/applications/${own.id}`]: () => {
        applications = [shared];
        return { status: 200, body: { deleted: true, application: own } };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} canChooseAudience />);
    const table = await screen.findByRole('table', { name: 'Uploaded documents' });
    expect(within(table).getByRole('link', { name: 'Download vpn-runbook.md' })).toHaveAttribute('href', `/db/${MSP}/applications/${own.id}/file`);
    expect(within(table).getByRole('link', { name: 'Download wifi-guide.pdf' })).toHaveAttribute('href', `/db/${MSP}/applications/${shared.id}/file`);
    expect(within(table).queryByRole('button', { name: 'Delete wifi-guide.pdf' })).not.toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Delete vpn-runbook.md' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete vpn-runbook.md?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete document' }));
    expect(await screen.findByText(MESSAGES.documents.deleted)).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByText('vpn-runbook.md')).not.toBeInTheDocument());
    expect(within(table).getByText('wifi-guide.pdf')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([`/db/${MSP}/applications/${own.id}`]);
  });

  // Regression (visual review s27): on a phone the picker looked like a text box and its type/size hint, the
  // placeholder, was cut off.
  it('names the file picker as one, with the types and size it takes said beside it', { timeout: 20_000 }, async () => {
    stubFetch({ [`GET /db/applications/msp/${MSP}`]: () => ({ status: 200, body: { applications: [] } }) });
    renderWithProviders(<DocumentsPage mspCustomDomain={MSP} canChooseAudience />);
    const form = await screen.findByRole('form', { name: 'Upload a document' });
    const picker = within(form).getByRole('button', { name: /^File/ });
    expect(picker).toHaveTextContent('Choose a file');
    expect(picker).toHaveAccessibleDescription('PDF, Word (.docx), Markdown or text, up to 10 MB');
  });
});
