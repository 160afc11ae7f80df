import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { problem, stubFetch } from '../test/fetch-stub';
import { renderAuthRoute } from '../test/render-auth-route';

async function fill(label: string, value: string) {
  const input = screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' });
  await userEvent.clear(input);
  await userEvent.type(input, value);
}

afterEach(() => vi.unstubAllGlobals());

describe('public sign-up (R-095–R-097)', { timeout: 30_000 }, () => {
  it('requires every field, a valid email and a strong password before calling the server', async () => {
    const api = stubFetch({});
    renderAuthRoute('/public/signup');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.emptyFields);
    await fill('First name', 'Pat');
    await fill('Last name', 'Public');
    await fill('Phone number', '2065550160');
    await fill('Email', 'pat@public');
    await fill('Password', 'weak');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.validEmailRequired);
    await fill('Email', 'pat@public.example');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.passwordRules.length);
    expect(api.calls).toHaveLength(0);
  });

  it('shows the server detail of a failed sign-up (publicSignup)', async () => {
    stubFetch({ 'POST /db/public/user/signup': problem(409, 'account_exists', MESSAGES.accountExists, { publicSignup: true }) });
    renderAuthRoute('/public/signup');
    await screen.findByRole('button', { name: 'Sign up' });
    await fill('First name', 'Pat');
    await fill('Last name', 'Public');
    await fill('Phone number', '2065550160');
    await fill('Email', 'pat@public.example');
    await fill('Password', 'Public!Pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.accountExists);
  });
});
