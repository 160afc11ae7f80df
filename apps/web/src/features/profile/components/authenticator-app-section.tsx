import { useState, type FormEvent } from 'react';
import { Alert, Button, Code, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QRCodeSVG } from 'qrcode.react';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionMspUser, TTotpSetupResponse } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { groupedKey, useConfirmTotp, useStartTotpSetup, useTotpStatus, useTurnOffTotp } from '../api/totp-queries';

const CODE_PATTERN = /^\d{6}$/;

/** The message that stops a code from being sent, or null (the server checks the code itself). */
function codeProblem(code: string): string | null {
  if (code === '') return MESSAGES.verificationCodeRequired;
  return CODE_PATTERN.test(code) ? null : MESSAGES.authenticatorApp.codeFormat;
}

/** The 6-digit code field with its submit and cancel buttons, in its own form (the profile form is a separate one). */
function CodeForm({ submitLabel, submitColour, isPending, error, onSubmit, onCancel }: {
  submitLabel: string;
  submitColour?: string;
  isPending: boolean;
  error: string | null;
  onSubmit: (code: string) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = code.replace(/\s/g, '');
    const found = codeProblem(trimmed);
    setProblem(found);
    if (found === null) onSubmit(trimmed);
  }
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="xs">
        <TextInput
          label="Code from the app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={problem ?? error}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color={submitColour} loading={isPending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * decisions #16: the signed-in user's authenticator app. "Set up" shows a new key as a QR code to scan, as text and as
 * its otpauth link, and takes a code from the app to confirm it; an app already in use keeps working until then.
 * "Turn off" asks for a current code.
 */
export function AuthenticatorAppSection({ user }: { user: TSessionMspUser }) {
  const status = useTotpStatus(user);
  const startSetup = useStartTotpSetup(user);
  const confirm = useConfirmTotp(user);
  const turnOff = useTurnOffTotp(user);
  const [step, setStep] = useState<{ kind: 'idle' } | { kind: 'setup'; setup: TTotpSetupResponse } | { kind: 'turnOff' }>({ kind: 'idle' });

  function handleStartSetup() {
    confirm.reset();
    startSetup.mutate(undefined, { onSuccess: (setup) => setStep({ kind: 'setup', setup }) });
  }

  function handleConfirm(code: string) {
    confirm.mutate(code, {
      onSuccess: () => {
        setStep({ kind: 'idle' });
        notifications.show({ color: 'green', title: MESSAGES.authenticatorApp.turnedOn, message: '' });
      },
    });
  }

  function handleTurnOff(code: string) {
    turnOff.mutate(code, {
      onSuccess: () => {
        setStep({ kind: 'idle' });
        notifications.show({ color: 'green', title: MESSAGES.authenticatorApp.turnedOff, message: '' });
      },
    });
  }

  function handleCancel() {
    confirm.reset();
    turnOff.reset();
    setStep({ kind: 'idle' });
  }

  return (
    <Stack component="section" aria-labelledby="authenticator-app-title" gap="xs">
      <Title order={3} size="h5" id="authenticator-app-title">
        Authenticator app
      </Title>
      {status.isPending && <Loader size="sm" aria-label="Loading the authenticator app status" />}
      {status.isError && (
        <Alert color="red" role="alert">
          {MESSAGES.authenticatorApp.loadFailed} {errorDetail(status.error)}
        </Alert>
      )}
      {status.data !== undefined && (
        <>
          <Text size="sm">{status.data ? MESSAGES.authenticatorApp.isOn : MESSAGES.authenticatorApp.isOff}</Text>
          {startSetup.isError && (
            <Alert color="red" role="alert">
              {MESSAGES.authenticatorApp.setupFailed} {errorDetail(startSetup.error)}
            </Alert>
          )}
          {step.kind === 'idle' && (
            <Group>
              <Button variant="light" size="xs" loading={startSetup.isPending} onClick={handleStartSetup}>
                {status.data ? 'Set up a new app' : 'Set up'}
              </Button>
              {status.data && (
                <Button variant="light" color="red" size="xs" onClick={() => setStep({ kind: 'turnOff' })}>
                  Turn off
                </Button>
              )}
            </Group>
          )}
          {step.kind === 'setup' && (
            <Stack gap="xs">
              <Text size="sm">{MESSAGES.authenticatorApp.setupSteps}</Text>
              {status.data && <Text size="sm">{MESSAGES.authenticatorApp.replaceNote}</Text>}
              {/* Black on white with the 4-module quiet zone the QR specification asks for, in the dark scheme too: phone
                  cameras read dark modules on a light ground. Level L (what a screen needs; it is no damaged label) keeps
                  the modules large. */}
              <QRCodeSVG
                value={step.setup.otpauthUrl}
                title={MESSAGES.authenticatorApp.qrCodeLabel}
                size={208}
                level="L"
                marginSize={4}
                bgColor="#FFFFFF"
                fgColor="#000000"
                style={{ display: 'block', borderRadius: 'var(--mantine-radius-sm)' }}
              />
              <Text size="sm" fw={500} id="authenticator-key-label">
                Key
              </Text>
              <Code block aria-labelledby="authenticator-key-label" style={{ fontSize: 'var(--mantine-font-size-md)', letterSpacing: '0.05em', whiteSpace: 'pre-wrap' }}>
                {groupedKey(step.setup.secret)}
              </Code>
              {/* A link with the secondary look links have elsewhere (Sync boards and tickets, the sign-in providers): as
                  brand-coloured text (the default brand is red) it read like an error. */}
              <Group>
                <Button component="a" href={step.setup.otpauthUrl} variant="default" size="xs">
                  Open in an authenticator app on this device
                </Button>
              </Group>
              <CodeForm submitLabel="Confirm" isPending={confirm.isPending} error={confirm.isError ? errorDetail(confirm.error) : null} onSubmit={handleConfirm} onCancel={handleCancel} />
            </Stack>
          )}
          {step.kind === 'turnOff' && (
            <Stack gap="xs">
              <Text size="sm">{MESSAGES.authenticatorApp.turnOffSteps}</Text>
              <CodeForm submitLabel="Turn off" submitColour="red" isPending={turnOff.isPending} error={turnOff.isError ? errorDetail(turnOff.error) : null} onSubmit={handleTurnOff} onCancel={handleCancel} />
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
