import { useState, type FormEvent } from 'react';
import { Alert, Button, Code, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QRCodeSVG } from 'qrcode.react';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionMspUser, TTotpSetupResponse } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import { groupedKey, useConfirmTotp, useStartTotpSetup, useTotpStatus, useTurnOffTotp, type TTotpCodes } from '../api/totp-queries';

const CODE_PATTERN = /^\d{6}$/;

type TCodeField = keyof Required<TTotpCodes>;

/** A code field of the form: which code it is, its label and what it says when left empty. */
type TCodeFieldSpec = { name: TCodeField; label: string; requiredMessage: string };

const APP_CODE: TCodeFieldSpec = { name: 'code', label: 'Code from the app', requiredMessage: MESSAGES.verificationCodeRequired };
/** Replacing an enrolled app takes a code from each (security review s28): the new one first, beside its QR code. */
const REPLACEMENT_CODES: TCodeFieldSpec[] = [
  { name: 'code', label: 'Code from the new app', requiredMessage: MESSAGES.verificationCodeRequired },
  { name: 'currentCode', label: 'Code from your current app', requiredMessage: MESSAGES.authenticatorApp.currentCodeRequired },
];

/** The message that stops a code from being sent, or null (the server checks the code itself). */
function codeProblem(code: string, requiredMessage: string): string | null {
  if (code === '') return requiredMessage;
  return CODE_PATTERN.test(code) ? null : MESSAGES.authenticatorApp.codeFormat;
}

/** The field a refused code belongs to: the one the server names, else the (new) app's code. */
function fieldOfError(error: unknown): string {
  return (isApiError(error) ? error.invalidParams[0]?.name : undefined) ?? 'code';
}

/** The 6-digit code fields with their submit and cancel buttons, in their own form (the profile form is a separate one). */
function CodeForm({ fields, submitLabel, submitColour, isPending, error, onSubmit, onCancel }: {
  fields: TCodeFieldSpec[];
  submitLabel: string;
  submitColour?: string;
  isPending: boolean;
  /** A refusal; one naming a field this form does not show (the status read before changed since) shows above the buttons. */
  error: { field: string; message: string } | null;
  onSubmit: (codes: TTotpCodes) => void;
  onCancel: () => void;
}) {
  const [codes, setCodes] = useState<Partial<Record<TCodeField, string>>>({});
  const [problems, setProblems] = useState<Partial<Record<TCodeField, string>>>({});
  const isErrorAtField = error !== null && fields.some((field) => field.name === error.field);
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const entered = (name: TCodeField): string => (codes[name] ?? '').replace(/\s/g, '');
    const found: Partial<Record<TCodeField, string>> = {};
    for (const field of fields) {
      const problem = codeProblem(entered(field.name), field.requiredMessage);
      if (problem !== null) found[field.name] = problem;
    }
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const isReplacement = fields.some((field) => field.name === 'currentCode');
    onSubmit(isReplacement ? { code: entered('code'), currentCode: entered('currentCode') } : { code: entered('code') });
  }
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="xs">
        {fields.map((field) => (
          <TextInput
            key={field.name}
            label={field.label}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            value={codes[field.name] ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setCodes((previous) => ({ ...previous, [field.name]: value }));
            }}
            error={problems[field.name] ?? (error?.field === field.name ? error.message : null)}
          />
        ))}
        {error !== null && !isErrorAtField && (
          <Alert color="red" role="alert">
            {error.message}
          </Alert>
        )}
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
 * its otpauth link, and takes a code from the app to confirm it; an app already in use keeps working until then, and
 * replacing it takes a current code from it too (security review s28: a session alone must not swap the second
 * factor). "Turn off" asks for a current code.
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

  function handleConfirm(codes: TTotpCodes) {
    const isReplacement = codes.currentCode !== undefined;
    confirm.mutate(codes, {
      onSuccess: () => {
        setStep({ kind: 'idle' });
        notifications.show({ color: 'green', title: isReplacement ? MESSAGES.authenticatorApp.replaced : MESSAGES.authenticatorApp.turnedOn, message: '' });
      },
    });
  }

  function handleTurnOff(codes: TTotpCodes) {
    turnOff.mutate(codes, {
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
              <CodeForm
                fields={status.data ? REPLACEMENT_CODES : [APP_CODE]}
                submitLabel="Confirm"
                isPending={confirm.isPending}
                error={confirm.isError ? { field: fieldOfError(confirm.error), message: errorDetail(confirm.error) } : null}
                onSubmit={handleConfirm}
                onCancel={handleCancel}
              />
            </Stack>
          )}
          {step.kind === 'turnOff' && (
            <Stack gap="xs">
              <Text size="sm">{MESSAGES.authenticatorApp.turnOffSteps}</Text>
              <CodeForm
                fields={[APP_CODE]}
                submitLabel="Turn off"
                submitColour="red"
                isPending={turnOff.isPending}
                error={turnOff.isError ? { field: 'code', message: errorDetail(turnOff.error) } : null}
                onSubmit={handleTurnOff}
                onCancel={handleCancel}
              />
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
