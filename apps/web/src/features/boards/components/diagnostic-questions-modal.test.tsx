import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { DiagnosticQuestionsModal } from './diagnostic-questions-modal';

const MSP = 'northwind';
const defaults = {
  typeId: 3,
  subTypeId: 31,
  typeName: 'Email',
  subTypeName: 'Outlook Not Working',
  isDefault: true,
  questions: [
    { id: 'outlook-app', text: 'Is the problem in the Outlook application itself?' },
    { id: 'webmail-works', text: 'Does your email work in the browser but not in the app?' },
  ],
};

function stubApi() {
  const saved: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const json = (payload: unknown, status = 200) => new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json' } });
      if (url.startsWith(`/db/${MSP}/diagnosticQuestions?`) && (init.method ?? 'GET') === 'GET') return json(defaults);
      if (url === `/db/${MSP}/diagnosticQuestions` && init.method === 'POST') {
        const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as { questions: { id?: string; text: string }[] };
        saved.push(body);
        return json({ ...defaults, isDefault: false, questions: body.questions.map((question, index) => ({ id: question.id ?? `q-new-${index}`, text: question.text })) });
      }
      return json({ status: 404, code: 'not_found', detail: 'Not found' }, 404);
    }),
  );
  return saved;
}

afterEach(() => vi.unstubAllGlobals());

describe('DiagnosticQuestionsModal', { timeout: 30_000 }, () => {
  it('shows the suggested questions, refuses an empty one in plain words, then saves an edit, a removal and a new question', async () => {
    const saved = stubApi();
    renderWithProviders(<DiagnosticQuestionsModal msp={MSP} typeId={3} subTypeId={31} name="Email / Outlook Not Working" isOpen onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Diagnostic questions: Email / Outlook Not Working' });
    expect(await within(dialog).findByDisplayValue('Is the problem in the Outlook application itself?')).toBeInTheDocument();
    expect(within(dialog).getByText(/These are the suggested questions/)).toBeInTheDocument();
    // Bug (axe sweep s28): the dialog's X had no accessible name (the footer's Close button had its text).
    expect(dialog.querySelector('.mantine-Modal-close')).toHaveAccessibleName('Close');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Add question' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save questions' }));
    expect(within(dialog).getByText(MESSAGES.diagnosticQuestions.questionRequired)).toBeInTheDocument();
    expect(saved).toHaveLength(0);

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Question 3' }), 'Does Outlook say "Disconnected"?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove question 2' }));
    const first = within(dialog).getByRole('textbox', { name: 'Question 1' });
    await userEvent.type(first, ' Even after a restart?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save questions' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      typeId: 3,
      subTypeId: 31,
      questions: [
        { id: 'outlook-app', text: 'Is the problem in the Outlook application itself? Even after a restart?' },
        { text: 'Does Outlook say "Disconnected"?' },
      ],
    });
    expect(await within(dialog).findByText(MESSAGES.diagnosticQuestions.saved)).toBeInTheDocument();
    expect(within(dialog).queryByDisplayValue('Does your email work in the browser but not in the app?')).not.toBeInTheDocument();
  });

  it('stops adding at ten questions and says why', async () => {
    stubApi();
    renderWithProviders(<DiagnosticQuestionsModal msp={MSP} typeId={3} subTypeId={31} name="Email / Outlook Not Working" isOpen onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    const add = await within(dialog).findByRole('button', { name: 'Add question' });
    for (let count = 2; count < 10; count += 1) await userEvent.click(add);
    expect(add).toBeDisabled();
    expect(within(dialog).getByText(MESSAGES.diagnosticQuestions.tooMany)).toBeInTheDocument();
  });
});
