import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { QueueSettingsCard } from './queue-settings-card';

const MSP = 'northwind';
const SAVED = { priorityWeight: 1, subtypeWeight: 0.5, slaWeight: 2, ageWeight: 0.25, rejectCooldownMinutes: 60, idleReleaseMinutes: 30, releaseOnSignOut: true, timeZone: 'UTC' };

/** A fake API: the saved settings, and the save's answer as `save` says. */
function stubApi(save: 'ok' | 'refused' | 'offline') {
  const saves: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
      if (!url.startsWith(`/db/api/ticketQueue/weights?mspCustomDomain=${MSP}`)) return json(404, {});
      if ((init.method ?? 'GET') === 'GET') return json(200, { settings: SAVED });
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      saves.push(body);
      if (save === 'offline') throw new TypeError('Failed to fetch');
      if (save === 'refused') return json(403, { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'You do not have permission to do this.', code: 'forbidden', requestId: 'r1' });
      return json(200, { settings: body });
    }),
  );
  return saves;
}

async function setPriorityWeightToFive() {
  renderWithProviders(<QueueSettingsCard msp={MSP} canEdit />);
  const input = await screen.findByRole('textbox', { name: 'Priority weight' });
  expect(input).toHaveValue('1');
  expect(screen.getByRole('button', { name: 'Save queue ordering' })).toBeDisabled();
  await userEvent.clear(input);
  await userEvent.type(input, '5');
  await userEvent.click(screen.getByRole('button', { name: 'Save queue ordering' }));
  return input;
}

afterEach(() => vi.unstubAllGlobals());

describe('QueueSettingsCard (DESIGN §8: the queue ordering an admin changes per MSP)', { timeout: 30_000 }, () => {
  it('shows the saved weights and rules, saves a change and says so', async () => {
    const saves = stubApi('ok');
    const input = await setPriorityWeightToFive();
    expect(await screen.findByRole('status')).toHaveTextContent(MESSAGES.queue.settingsSaved);
    expect(saves).toEqual([{ ...SAVED, priorityWeight: 5 }]);
    expect(input).toHaveValue('5');
    expect(screen.getByRole('switch', { name: 'Release unstarted tickets when a technician signs out' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save queue ordering' })).toBeDisabled();
  });

  it('keeps the edit on screen with the server’s reason when the save is refused', async () => {
    stubApi('refused');
    const input = await setPriorityWeightToFive();
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to do this.');
    expect(input).toHaveValue('5');
    expect(screen.getByRole('button', { name: 'Save queue ordering' })).toBeEnabled();
  });

  it('says plainly that nothing was saved when the network fails, and Cancel brings the saved values back', async () => {
    stubApi('offline');
    const input = await setPriorityWeightToFive();
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.queue.settingsFailed);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(input).toHaveValue('1');
  });
});

describe('QueueSettingsCard: an emptied field', { timeout: 30_000 }, () => {
  it('asks for a number in range and sends nothing', async () => {
    const saves = stubApi('ok');
    renderWithProviders(<QueueSettingsCard msp={MSP} canEdit />);
    const input = await screen.findByRole('textbox', { name: /Release unstarted tickets after idle/ });
    await userEvent.clear(input);
    await userEvent.click(screen.getByRole('button', { name: 'Save queue ordering' }));
    expect(await screen.findByText('Enter a number from 0 to 1440.')).toBeInTheDocument();
    expect(saves).toEqual([]);
  });
});

describe('QueueSettingsCard: the working day’s time zone', { timeout: 30_000 }, () => {
  it('is chosen from the list and saved with the rest', async () => {
    const saves = stubApi('ok');
    renderWithProviders(<QueueSettingsCard msp={MSP} canEdit />);
    const zone = await screen.findByRole('combobox', { name: 'Time zone of the working day' });
    expect(zone).toHaveValue('UTC');
    await userEvent.clear(zone);
    await userEvent.type(zone, 'New_York');
    await userEvent.click(within(await screen.findByRole('listbox', { hidden: true })).getByRole('option', { name: 'America/New_York', hidden: true }));
    await userEvent.click(screen.getByRole('button', { name: 'Save queue ordering' }));
    expect(await screen.findByRole('status')).toHaveTextContent(MESSAGES.queue.settingsSaved);
    expect(saves).toEqual([{ ...SAVED, timeZone: 'America/New_York' }]);
    expect(zone).toHaveValue('America/New_York');
  });

  // Slowness (s29): the ~400 zones stayed on the page, hidden, and were re-rendered with every edit on the Board screen.
  it('puts the zones on the page only while their list is open', async () => {
    stubApi('ok');
    renderWithProviders(<QueueSettingsCard msp={MSP} canEdit />);
    const zone = await screen.findByRole('combobox', { name: 'Time zone of the working day' });
    expect(screen.queryAllByRole('option', { hidden: true })).toHaveLength(0);
    await userEvent.click(zone);
    expect(await screen.findByRole('option', { name: 'America/New_York', hidden: true })).toBeInTheDocument();
  });
});
