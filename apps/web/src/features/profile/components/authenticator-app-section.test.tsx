import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QRCodeSVG } from 'qrcode.react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionMspUser } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { groupedKey, totpPath } from '../api/totp-queries';
import { AuthenticatorAppSection } from './authenticator-app-section';

const technician: TSessionMspUser = buildAdminTechnician();
const BASE = '/db/northwind/technicianUsers/totp';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const OTPAUTH = `otpauth://totp/Switchboard%20(Northwind%20IT):${encodeURIComponent(technician.email)}?secret=${SECRET}`;

type TCall = { url: string; method: string; body: unknown };

/**
 * A server holding the user's authenticator state; `enable`/`disable` take only `rightCode`, and `enable` with an app
 * already on also needs `currentRightCode` from it as `currentCode` (security review s28). `firstStatus` is what the
 * first status read answers when it differs from the state (an app turned on in another tab after it was read).
 */
function stubTotpServer(initiallyOn: boolean, rightCode = '123456', currentRightCode = '777777', options: { firstStatus?: boolean } = {}) {
  let isOn = initiallyOn;
  let staleStatus = options.firstStatus;
  const calls: TCall[] = [];
  const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
  const wrongCode = () => json(400, { type: 'about:blank', title: 'Bad Request', status: 400, detail: MESSAGES.invalidVerificationCode, code: 'invalid_code', requestId: 'r' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { code?: string; currentCode?: string }) : undefined;
      calls.push({ url, method: init.method ?? 'GET', body });
      if (url === BASE) {
        const answer = staleStatus ?? isOn;
        staleStatus = undefined;
        return json(200, { totpEnabled: answer });
      }
      if (url === `${BASE}/setup`) return json(200, { secret: SECRET, otpauthUrl: OTPAUTH });
      if (url === `${BASE}/enable` && isOn && body?.currentCode !== currentRightCode) {
        // As the server does: no current code at all is asked for in other words than a wrong one.
        const detail = body?.currentCode === undefined ? MESSAGES.authenticatorApp.currentCodeRequired : MESSAGES.authenticatorApp.currentCodeWrong;
        return json(400, { type: 'about:blank', title: 'Bad Request', status: 400, detail, code: 'invalid_code', invalidParams: [{ name: 'currentCode', reason: detail }], requestId: 'r' });
      }
      if (url === `${BASE}/enable` || url === `${BASE}/disable`) {
        if (body?.code !== rightCode) return wrongCode();
        isOn = url.endsWith('/enable');
        return json(200, { totpEnabled: isOn });
      }
      return json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found.', code: 'not_found', requestId: 'r' });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('authenticator app in the profile dialog (decisions #16, review s27 #2)', () => {
  it('uses the own user kind and groups the key in fours', () => {
    expect(totpPath(technician)).toBe(BASE);
    expect(totpPath({ ...technician, userKind: 'client' })).toBe('/db/northwind/clientUsers/totp');
    expect(groupedKey(SECRET)).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
  });

  it('sets the app up: shows the key and the link, asks for the code, then says it is on', { timeout: 20_000 }, async () => {
    const calls = stubTotpServer(false);
    renderWithProviders(<AuthenticatorAppSection user={technician} />);
    expect(await screen.findByText(MESSAGES.authenticatorApp.isOff)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set up' }));
    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    const appLink = screen.getByRole('link', { name: 'Open in an authenticator app on this device' });
    expect(appLink).toHaveAttribute('href', OTPAUTH);
    // Review s27: drawn as brand-coloured text (the default brand is red) it read like an error; it has the secondary look.
    expect(appLink).toHaveAttribute('data-variant', 'default');

    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MESSAGES.verificationCodeRequired)).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Code from the app' }), '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MESSAGES.authenticatorApp.codeFormat)).toBeInTheDocument();
    expect(calls.filter((call) => call.url.endsWith('/enable'))).toEqual([]);

    await userEvent.type(screen.getByRole('textbox', { name: 'Code from the app' }), '9');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MESSAGES.invalidVerificationCode)).toBeInTheDocument();
    await userEvent.clear(screen.getByRole('textbox', { name: 'Code from the app' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Code from the app' }), '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MESSAGES.authenticatorApp.isOn)).toBeInTheDocument();
    expect(calls.filter((call) => call.url.endsWith('/enable')).map((call) => call.body)).toEqual([{ code: '123459' }, { code: '123456' }]);
    expect(screen.queryByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).not.toBeInTheDocument();
  });

  it('shows the otpauth link as a QR code to scan, above the key (review s28 #1)', { timeout: 20_000 }, async () => {
    stubTotpServer(false);
    renderWithProviders(<AuthenticatorAppSection user={technician} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Set up' }));
    const qrCode = await screen.findByRole('img', { name: MESSAGES.authenticatorApp.qrCodeLabel });
    expect(qrCode.tagName.toLowerCase()).toBe('svg');
    // The drawn modules are those of the otpauth URI itself (the same encoder given another value draws others).
    const modulesOf = (svg: Element) => svg.querySelectorAll('path')[1]?.getAttribute('d');
    const reference = render(<QRCodeSVG value={OTPAUTH} level="L" marginSize={4} />);
    const other = render(<QRCodeSVG value={`${OTPAUTH}X`} level="L" marginSize={4} />);
    const referenceSvg = reference.container.querySelector('svg');
    const otherSvg = other.container.querySelector('svg');
    if (referenceSvg === null || otherSvg === null) throw new Error('the reference QR codes did not render');
    expect(modulesOf(qrCode)).toBe(modulesOf(referenceSvg));
    expect(modulesOf(qrCode)).not.toBe(modulesOf(otherSvg));
    // Above the key, which stays (with the link) for those who cannot scan.
    const key = screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(qrCode.compareDocumentPosition(key) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open in an authenticator app on this device' })).toHaveAttribute('href', OTPAUTH);
  });

  it('replacing the app asks for a code from the current app as well as the new one and sends both (security review s28)', { timeout: 30_000 }, async () => {
    const calls = stubTotpServer(true, '123456', '777777');
    renderWithProviders(<AuthenticatorAppSection user={technician} />);
    expect(await screen.findByText(MESSAGES.authenticatorApp.isOn)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set up a new app' }));
    expect(await screen.findByText(MESSAGES.authenticatorApp.replaceNote)).toBeInTheDocument();
    const currentField = screen.getByRole('textbox', { name: 'Code from your current app' });
    const newField = screen.getByRole('textbox', { name: 'Code from the new app' });
    expect(screen.queryByRole('textbox', { name: 'Code from the app' })).not.toBeInTheDocument();

    // Both codes are needed before anything is sent.
    await userEvent.type(newField, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MESSAGES.authenticatorApp.currentCodeRequired)).toBeInTheDocument();
    expect(calls.filter((call) => call.url.endsWith('/enable'))).toEqual([]);

    // A wrong current code is shown at its own field.
    await userEvent.type(currentField, '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MESSAGES.authenticatorApp.currentCodeWrong)).toBeInTheDocument();
    expect(currentField).toHaveAccessibleDescription(MESSAGES.authenticatorApp.currentCodeWrong);
    expect(screen.getByText(MESSAGES.authenticatorApp.isOn)).toBeInTheDocument();

    await userEvent.clear(currentField);
    await userEvent.type(currentField, '777 777');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    // Confirmed: it says the old app is done, and the key is gone.
    expect(await screen.findByText(MESSAGES.authenticatorApp.replaced)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set up a new app' })).toBeInTheDocument();
    expect(calls.filter((call) => call.url.endsWith('/enable')).map((call) => call.body)).toEqual([
      { code: '123456', currentCode: '111111' },
      { code: '123456', currentCode: '777777' },
    ]);
    expect(screen.queryByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).not.toBeInTheDocument();
  });

  it('an app turned on in another tab: the refusal naming the current code is shown, and its box appears (review s28 fix #1)', { timeout: 30_000 }, async () => {
    // The dialog read "Off"; meanwhile the user turned an app on in another tab.
    const calls = stubTotpServer(true, '123456', '777777', { firstStatus: false });
    renderWithProviders(<AuthenticatorAppSection user={technician} />);
    expect(await screen.findByText(MESSAGES.authenticatorApp.isOff)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set up' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Code from the app' }), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));

    // The refusal names `currentCode`, a box the form did not show: it is not lost.
    expect(await screen.findByText(MESSAGES.authenticatorApp.currentCodeRequired)).toBeInTheDocument();
    // The status is read again, so the form becomes the replacement form with the box the server asks for.
    const currentField = await screen.findByRole('textbox', { name: 'Code from your current app' });
    expect(currentField).toHaveAccessibleDescription(MESSAGES.authenticatorApp.currentCodeRequired);
    expect(screen.getByText(MESSAGES.authenticatorApp.isOn)).toBeInTheDocument();
    const newField = screen.getByRole('textbox', { name: 'Code from the new app' });
    expect(newField).toHaveValue('123456');

    await userEvent.type(currentField, '777777');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MESSAGES.authenticatorApp.replaced)).toBeInTheDocument();
    expect(calls.filter((call) => call.url.endsWith('/enable')).map((call) => call.body)).toEqual([
      { code: '123456' },
      { code: '123456', currentCode: '777777' },
    ]);
  });

  it('shows a refusal naming a box the form does not hold above its buttons (review s28 fix #1)', { timeout: 20_000 }, async () => {
    // The status stays stale ("Off") here: the refusal itself must still reach the person.
    const json = (status: number, payload: unknown) => new Response(JSON.stringify(payload), { status });
    const detail = MESSAGES.authenticatorApp.currentCodeRequired;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === BASE) return json(200, { totpEnabled: false });
        if (url === `${BASE}/setup`) return json(200, { secret: SECRET, otpauthUrl: OTPAUTH });
        return json(400, { type: 'about:blank', title: 'Bad Request', status: 400, detail, code: 'invalid_code', invalidParams: [{ name: 'currentCode', reason: detail }], requestId: 'r' });
      }),
    );
    renderWithProviders(<AuthenticatorAppSection user={technician} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Set up' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Code from the app' }), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(screen.queryByRole('textbox', { name: 'Code from your current app' })).not.toBeInTheDocument();
  });

  it('turns the app off only with a current code from it', { timeout: 20_000 }, async () => {
    const calls = stubTotpServer(true, '654321');
    renderWithProviders(<AuthenticatorAppSection user={technician} />);
    expect(await screen.findByText(MESSAGES.authenticatorApp.isOn)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(screen.getByText(MESSAGES.authenticatorApp.turnOffSteps)).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Code from the app' }), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(MESSAGES.invalidVerificationCode)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.authenticatorApp.isOn)).toBeInTheDocument();
    await userEvent.clear(screen.getByRole('textbox', { name: 'Code from the app' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Code from the app' }), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(MESSAGES.authenticatorApp.isOff)).toBeInTheDocument();
    expect(calls.filter((call) => call.url.endsWith('/disable')).map((call) => call.body)).toEqual([{ code: '111111' }, { code: '654321' }]);
  });
});
