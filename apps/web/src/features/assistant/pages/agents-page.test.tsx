import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_AGENT_ID, MESSAGES } from '@switchboard/contracts';
import type { TAgent } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MSP, stubFetch } from '../test/assistant-fixtures';
import { AgentsPage } from './agents-page';

function agent(id: string, agentName: string, custom: boolean): TAgent {
  return {
    id,
    agentName,
    role: custom ? 'Microsoft 365 specialist' : 'Troubleshooter',
    description: `${agentName} helps with things.`,
    objectives: ['Find the cause'],
    custom,
    deleted: false,
    defaultPrompt: null,
    examplePrompts: [],
    techId: null,
    userId: null,
    mspCustomDomain: custom ? MSP : null,
    previousAgentId: null,
    createdAt: '2026-11-23T16:00:00.000Z',
  };
}

const BUILT_IN = agent(DEFAULT_AGENT_ID, 'Jarvis Troubleshooter', false);
const CUSTOM_ID = '3a1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a55';

afterEach(() => vi.unstubAllGlobals());

describe('AgentsPage (02 §4 Agents)', () => {
  it('shows the four agent-form messages and sends nothing while any shows (R-244)', { timeout: 20_000 }, async () => {
    const calls = stubFetch({ 'GET /db/getAgents': () => ({ status: 200, body: { agents: [BUILT_IN] } }) });
    const user = userEvent.setup();
    renderWithProviders(<AgentsPage mspCustomDomain={MSP} />);
    await user.click(await screen.findByRole('button', { name: 'Create agent' }));
    const form = await screen.findByRole('form', { name: 'Create agent' });
    await user.click(within(form).getByRole('button', { name: 'Create agent' }));
    for (const message of [MESSAGES.agentForm.nameRequired, MESSAGES.agentForm.roleRequired, MESSAGES.agentForm.descriptionRequired, MESSAGES.agentForm.objectiveRequired]) {
      expect(within(form).getByText(message)).toBeInTheDocument();
    }
    expect(calls.some((call) => call.url.startsWith('/gpt/assistant/createNewAgent'))).toBe(false);
  });

  it('creates an agent, edits it into a new one and soft-deletes it; the built-in agent cannot be edited or deleted', { timeout: 30_000 }, async () => {
    let agents = [BUILT_IN];
    const calls = stubFetch({
      'GET /db/getAgents': () => ({ status: 200, body: { agents } }),
      'POST /gpt/assistant/createNewAgent': (call) => {
        const created = { ...agent(CUSTOM_ID, (call.body as { agentName: string }).agentName, true), objectives: (call.body as { objectives: string[] }).objectives };
        agents = [BUILT_IN, created];
        return { status: 201, body: { agent: created } };
      },
      'POST /gpt/assistant/editAndCreateNewAgent': (call) => {
        const edited = { ...agent('4b1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a66', (call.body as { agentName: string }).agentName, true), previousAgentId: CUSTOM_ID };
        agents = [BUILT_IN, edited];
        return { status: 201, body: { agent: edited } };
      },
      'GET /db/softDeleteAgent': (call) => {
        agents = [BUILT_IN];
        return { status: 200, body: { agentId: new URL(call.url, 'http://x').searchParams.get('agentId'), deleted: true } };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<AgentsPage mspCustomDomain={MSP} />);
    const builtIn = await screen.findByRole('listitem', { name: 'Jarvis Troubleshooter' });
    expect(within(builtIn).getByText('Built in')).toBeInTheDocument();
    expect(within(builtIn).queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create agent' }));
    const form = await screen.findByRole('form', { name: 'Create agent' });
    await user.type(within(form).getByLabelText('Agent name'), 'M365 Helper');
    await user.type(within(form).getByLabelText('Role'), 'Microsoft 365 specialist');
    await user.type(within(form).getByLabelText('Description'), 'Answers Microsoft 365 questions.');
    await user.type(within(form).getByRole('textbox', { name: 'Objective 1' }), 'Fix mailbox problems');
    await user.click(within(form).getByRole('button', { name: 'Add objective' }));
    await user.type(within(form).getByRole('textbox', { name: 'Objective 2' }), 'Explain licences');
    await user.click(within(form).getByRole('button', { name: 'Create agent' }));
    expect(await screen.findByRole('listitem', { name: 'M365 Helper' })).toBeInTheDocument();
    expect(calls.find((call) => call.url.startsWith('/gpt/assistant/createNewAgent'))?.body).toEqual({
      agentName: 'M365 Helper',
      role: 'Microsoft 365 specialist',
      description: 'Answers Microsoft 365 questions.',
      objectives: ['Fix mailbox problems', 'Explain licences'],
    });

    await user.click(screen.getByRole('button', { name: 'Edit M365 Helper' }));
    const editForm = await screen.findByRole('form', { name: 'Edit M365 Helper' });
    await user.clear(within(editForm).getByLabelText('Agent name'));
    await user.type(within(editForm).getByLabelText('Agent name'), 'M365 Expert');
    await user.click(within(editForm).getByRole('button', { name: 'Save agent' }));
    expect(await screen.findByRole('listitem', { name: 'M365 Expert' })).toBeInTheDocument();
    expect(calls.find((call) => call.url.startsWith('/gpt/assistant/editAndCreateNewAgent'))?.url).toContain(`agentId=${CUSTOM_ID}`);

    await user.click(screen.getByRole('button', { name: 'Delete M365 Expert' }));
    // R-246 is a soft delete: the dialog promised the conversations were kept, but nothing listed them again.
    expect(await screen.findByText(MESSAGES.assistant.agentDeleteWarning)).toBeInTheDocument();
    expect(screen.queryByText(/past conversations are kept/)).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Delete agent' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'M365 Expert' })).not.toBeInTheDocument());
    expect(calls.some((call) => call.url.startsWith('/db/softDeleteAgent?agentId=4b1e8a4e'))).toBe(true);
  });
});
