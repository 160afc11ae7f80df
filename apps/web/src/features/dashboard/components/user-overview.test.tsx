import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { permissionMap } from '@switchboard/contracts';
import type { TWizardProgress } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { stubFetch } from '../../auth/test/fetch-stub';
import { MspUserOverview } from './user-overview';

const WIZARD_PATH = '/db/northwind/wizard';
const AT_STEP_ONE: TWizardProgress = { currentStep: 1, completedSteps: [], boardId: null, boardName: null, isFinished: false, finishedAt: null };
const FINISHED: TWizardProgress = { currentStep: 6, completedSteps: [1, 2, 3, 4, 5, 6], boardId: 1, boardName: 'Help Desk', isFinished: true, finishedAt: '2026-11-20T10:00:00.000Z' };
const QUEUE_EMPTY_UNTIL = 'Your ticket queue stays empty until a board is chosen and its tickets are synchronized.';

function renderOverview(user = buildAdminTechnician()) {
  const onChooseOption = vi.fn();
  const onOpenQueue = vi.fn();
  renderWithProviders(<MspUserOverview user={user} onChooseOption={onChooseOption} onOpenProfile={vi.fn()} onOpenQueue={onOpenQueue} />);
  const nextSteps = () => within(screen.getByRole('region', { name: 'Next steps' }));
  return { onChooseOption, onOpenQueue, nextSteps };
}

afterEach(() => vi.unstubAllGlobals());

// First-run review: an admin whose setup was unfinished was sent first to "Open your ticket queue", where "Get next
// tickets" answered nothing and nothing said why.
describe('the overview of an MSP whose setup is unfinished', () => {
  it('puts "Finish setting up" first for someone who may run the wizard, leading to MSP integrations', { timeout: 20_000 }, async () => {
    stubFetch({ [`GET ${WIZARD_PATH}`]: { status: 200, body: AT_STEP_ONE } });
    const { onChooseOption, nextSteps } = renderOverview();
    const finish = await screen.findByRole('button', { name: 'Finish setting up' });
    expect(screen.getByText(QUEUE_EMPTY_UNTIL)).toBeInTheDocument();
    const [first] = nextSteps().getAllByRole('listitem');
    expect(first).toHaveTextContent('Finish setting up');
    await userEvent.click(finish);
    expect(onChooseOption).toHaveBeenCalledWith('msp-integrations');
  });

  it('says nothing about setup once the wizard is finished', { timeout: 20_000 }, async () => {
    const api = stubFetch({ [`GET ${WIZARD_PATH}`]: { status: 200, body: FINISHED } });
    const { nextSteps } = renderOverview();
    await waitFor(() => expect(api.callsTo('GET', WIZARD_PATH)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Finish setting up' })).not.toBeInTheDocument();
    expect(nextSteps().getAllByRole('listitem')[0]).toHaveTextContent('Open your ticket queue');
  });

  it('does not ask about the wizard for someone who may not run it', async () => {
    const api = stubFetch({});
    renderOverview(buildAdminTechnician({ roleName: 'Technician', permissions: permissionMap(['boardView']) }));
    expect(await screen.findByRole('button', { name: 'Open your ticket queue' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.calls).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Finish setting up' })).not.toBeInTheDocument();
  });
});

// The axe sweep s28: every signed-in screen began at h2 and the tab always read "Switchboard".
describe('the overview as a page', () => {
  it('is the page heading (h1) and names the tab', { timeout: 20_000 }, async () => {
    stubFetch({ [`GET ${WIZARD_PATH}`]: { status: 200, body: FINISHED } });
    renderOverview();
    expect(await screen.findByRole('heading', { level: 1, name: /^Welcome, / })).toBeInTheDocument();
    expect(document.title).toMatch(/^Overview · /);
  });
});
