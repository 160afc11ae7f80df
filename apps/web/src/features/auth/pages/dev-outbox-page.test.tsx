import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { renderAuthRoute } from '../test/render-auth-route';

const MAIL = {
  id: 'm-1',
  to: 'sam@northwind-it.example',
  subject: 'Your Switchboard verification code',
  text: 'Use this code to finish signing in:\n\n482913\n\nIt expires in 10 minutes.',
  createdAt: '2026-11-22T06:40:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('dev outbox page', () => {
  it('lists captured mail with its code and asks the server for one recipient when searched', async () => {
    const api = stubFetch({ 'GET /dev/outbox': ({ search }) => ({ status: 200, body: { items: search.get('to') === 'nobody@x.example' ? [] : [MAIL] } }) });
    renderAuthRoute('/dev/outbox');
    expect(await screen.findByText('Your Switchboard verification code')).toBeInTheDocument();
    expect(screen.getByLabelText('Code 482913')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Recipient email'), 'Nobody@x.example');
    expect(await screen.findByText('No mail yet.', {}, { timeout: 3_000 })).toBeInTheDocument();
    await waitFor(() => expect(api.calls.some((call) => call.search.get('to') === 'nobody@x.example')).toBe(true));
  });
});
