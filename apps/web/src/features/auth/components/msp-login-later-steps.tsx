import { useState, type FormEvent } from 'react';
import { Anchor, Avatar, Button, Group, PasswordInput, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CORE_MESSAGES } from '@switchboard/contracts';
import type { TMspDomainChoice, TPasswordSignInResponse } from '@switchboard/contracts';
import { setMainLoading } from '../../../lib/loading-store';
import { startSignedInSession } from '../../session/api/signed-in-session';
import { returnPathFor } from '../../session/return-path';
import { RETURN_TO_PARAM } from '../../session/session-guards';
import { resendTwoFactorCode, signInToMsp, verifyTwoFactorCode } from '../api/auth-steps-api';
import type { TLoginUserKind } from '../lib/user-kind';
import { FormError, FormNotice } from './form-error';
import { VerificationCodeInput } from './verification-code-input';
// Loaded with these steps only; mantine-base.ts holds what the first load needs.
import '@mantine/core/styles/Avatar.css';
import './password-input-styles';
import { errorDetail } from '../../../lib/api-client';

export type TLaterStep =
  | { name: 'choose-msp'; choices: TMspDomainChoice[] }
  | { name: 'password'; msp: TMspDomainChoice }
  | { name: 'code'; msp: TMspDomainChoice; challenge: TPasswordSignInResponse };

type TMspLoginLaterStepsProps = {
  userKind: TLoginUserKind;
  email: string;
  firstStep: TLaterStep;
  fixedMspDomain?: string;
  buttonColour?: string;
  onStartOver: () => void;
};

/**
 * The MSP sign-in after the email step (02 §4, R-055–R-062): MSP choice, password, 6-digit code.
 * Loaded only once an email was found, so the sign-in page's first load carries none of it.
 */
export function MspLoginLaterSteps({ userKind, email, firstStep, fixedMspDomain, buttonColour, onStartOver }: TMspLoginLaterStepsProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [step, setStep] = useState<TLaterStep>(firstStep);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  // One message line for every step.
  const [error, setError] = useState<string | null>(null);
  const signIn = useMutation({
    mutationFn: (msp: TMspDomainChoice) => signInToMsp(msp.mspCustomDomain, userKind, { emailId: email.trim(), password }),
  });
  const verify = useMutation({
    mutationFn: (input: { msp: TMspDomainChoice; challengeId: string; code: string }) =>
      verifyTwoFactorCode(input.msp.mspCustomDomain, userKind, { challengeId: input.challengeId, code: input.code }),
  });
  const resend = useMutation({
    mutationFn: (input: { msp: TMspDomainChoice; challengeId: string }) => resendTwoFactorCode(input.msp.mspCustomDomain, userKind, input.challengeId),
  });

  function showStep(next: TLaterStep) {
    setError(null);
    setNotice(null);
    setStep(next);
  }

  function handlePasswordSubmit(event: FormEvent, msp: TMspDomainChoice) {
    event.preventDefault();
    if (password === '') {
      setError(CORE_MESSAGES.passwordRequired);
      return;
    }
    setError(null);
    signIn.mutate(msp, {
      onError: (cause) => setError(errorDetail(cause)),
      onSuccess: (challenge) => {
        setCode('');
        showStep({ name: 'code', msp, challenge });
      },
    });
  }

  function submitCode(msp: TMspDomainChoice, challengeId: string, value: string) {
    // Filling the last box submits on its own; a following Enter must not send the code twice.
    if (verify.isPending) return;
    if (!/^\d{6}$/.test(value)) {
      setError(CORE_MESSAGES.verificationCodeRequired);
      return;
    }
    setError(null);
    setNotice(null);
    verify.mutate(
      { msp, challengeId, code: value },
      {
        onError: (cause) => {
          setError(errorDetail(cause));
          // Empty boxes invite a fresh code instead of editing the rejected one.
          setCode('');
        },
        onSuccess: ({ user, redirectTo }) => {
          startSignedInSession(queryClient, user);
          // the dots overlay covers the hand-over; the dashboard shell clears it once mounted.
          setMainLoading(true);
          // Sent here from a page (a session that ended, a bookmarked dashboard): back to it, else the server's landing.
          void navigate(returnPathFor(user, searchParams.get(RETURN_TO_PARAM)) ?? redirectTo);
        },
      },
    );
  }

  function handleResend(msp: TMspDomainChoice, challengeId: string) {
    setError(null);
    setNotice(null);
    setCode('');
    resend.mutate(
      { msp, challengeId },
      { onError: (cause) => setError(errorDetail(cause)), onSuccess: ({ message }) => setNotice(message) },
    );
  }

  const startOver = (
    <Anchor component="button" type="button" size="sm" onClick={onStartOver}>
      Use a different email
    </Anchor>
  );

  switch (step.name) {
    case 'choose-msp':
      return (
        <Stack>
          <Text>{CORE_MESSAGES.auth.chooseMsp}</Text>
          <Stack gap="xs" role="list" aria-label="Service providers">
            {step.choices.map((msp) => (
              <div role="listitem" key={msp.mspCustomDomain}>
                <UnstyledButton
                  w="100%"
                  onClick={() => showStep({ name: 'password', msp })}
                  p="sm"
                  style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 8 }}
                >
                  <Group>
                    <Avatar src={msp.logoUrl} alt="" radius="sm">
                      {msp.mspName.slice(0, 1)}
                    </Avatar>
                    <div>
                      <Text fw={600}>{msp.mspName}</Text>
                      <Text size="sm" c="dimmed">
                        /{msp.mspCustomDomain}
                      </Text>
                    </div>
                  </Group>
                </UnstyledButton>
              </div>
            ))}
          </Stack>
          {startOver}
        </Stack>
      );
    case 'password':
      return (
        <form onSubmit={(event) => handlePasswordSubmit(event, step.msp)} noValidate>
          <Stack>
            <Text size="sm">
              Signing in to <b>{step.msp.mspName}</b> as {email.trim()}
            </Text>
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              autoFocus
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <FormError message={error} />
            <Button type="submit" loading={signIn.isPending} color={buttonColour}>
              Sign in
            </Button>
            <Group justify="space-between">
              {startOver}
              {fixedMspDomain === undefined ? (
                <Anchor component={Link} to={`/${step.msp.mspCustomDomain}/forgot`} size="sm">
                  Forgot password
                </Anchor>
              ) : null}
            </Group>
          </Stack>
        </form>
      );
    case 'code':
      return (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submitCode(step.msp, step.challenge.challengeId, code);
          }}
          noValidate
        >
          <Stack>
            <Text size="sm">
              We sent a 6-digit verification code to {step.challenge.sentTo}.
              {step.challenge.methods.includes('totp') ? ' You can also enter the code from your authenticator app.' : ''}
            </Text>
            <VerificationCodeInput
              label="Verification code"
              value={code}
              onChange={setCode}
              onComplete={(value) => submitCode(step.msp, step.challenge.challengeId, value)}
              hasError={error !== null}
            />
            <FormError message={error} />
            <FormNotice message={notice} />
            <Button type="submit" loading={verify.isPending} color={buttonColour}>
              Verify
            </Button>
            <Group justify="space-between">
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => handleResend(step.msp, step.challenge.challengeId)}
                disabled={resend.isPending}
              >
                Resend code
              </Anchor>
              {startOver}
            </Group>
          </Stack>
        </form>
      );
  }
}
