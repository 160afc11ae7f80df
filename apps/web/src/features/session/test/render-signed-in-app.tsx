import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { TSessionUser } from '@switchboard/contracts';
import { apiFetch, errorDetail } from '../../../lib/api-client';
import { useTicketFlowStore } from '../../assistant/state/ticket-flow-store';
import { authRoutes } from '../../auth/routes';
import { startSignedInSession } from '../api/signed-in-session';
import { watchForEndedSession } from '../session-end';

/** The call the stand-in dashboard's Save button makes. */
export const SAVE_PATH = '/db/northwind/technicianUsers/update';

/** Stands in for a dashboard: shows where it is and the Jarvis chat in memory, and saves something on a click. */
function WorkPage() {
  const location = useLocation();
  const lines = useTicketFlowStore((state) => state.lines);
  const [error, setError] = useState<string | null>(null);
  return (
    <main>
      <p data-testid="landed">{`${location.pathname}${location.search}`}</p>
      {lines.map((line) => (
        <p key={line.key}>{line.text}</p>
      ))}
      <button type="button" onClick={() => void apiFetch(SAVE_PATH, { method: 'POST', body: {} }).catch((cause: unknown) => setError(errorDetail(cause)))}>
        Save
      </button>
      {error === null ? null : <p role="alert">{error}</p>}
    </main>
  );
}

/**
 * The real sign-in routes and the in-app session-end handling, wired as app.tsx wires them, around
 * a stand-in dashboard; `user` (when given) is signed in first, as a sign-in flow would. Call
 * `stop` after the test.
 */
export function renderSignedInApp(user: TSessionUser | null, path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  if (user !== null) startSignedInSession(queryClient, user);
  const router = createMemoryRouter(
    [
      ...authRoutes,
      { path: '/:msp/dashboard/:id', Component: WorkPage },
      { path: '/:msp/dashboard/:id/tickets', Component: WorkPage },
      { path: '/dashboard/:id', Component: WorkPage },
    ],
    { initialEntries: [path] },
  );
  const reload = vi.fn();
  const stop = watchForEndedSession({ queryClient, router, reload });
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { router, queryClient, reload, stop };
}

/** An MSP user's sign-in on the page shown: email, password, then the 6-digit code. */
export async function signInOnMspPage(email: string) {
  const emailField = await screen.findByLabelText(/Email/);
  await userEvent.clear(emailField);
  await userEvent.type(emailField, email);
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
  await userEvent.type(await screen.findByLabelText(/Password/), 'Secret!Pass1');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  const [firstBox] = await screen.findAllByRole('textbox', { name: 'Verification code' });
  if (!firstBox) throw new Error('no code boxes');
  await userEvent.click(firstBox);
  await userEvent.keyboard('482913');
}
