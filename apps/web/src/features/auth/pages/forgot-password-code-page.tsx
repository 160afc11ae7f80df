import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { MESSAGES } from '@switchboard/contracts';
import { requestPasswordReset, validateResetCode } from '../api/auth-steps-api';
import { FormError, FormNotice } from '../components/form-error';
import { MspAuthFrame } from '../components/msp-auth-frame';
import { VerificationCodeInput } from '../components/verification-code-input';
import { isNothingDoneFailure } from '../lib/error-message';
import { loadForgotPasswordState, saveForgotPasswordState, type TForgotPasswordState } from '../lib/forgot-password-state';
import { errorDetail } from '../../../lib/api-client';

/** `/{msp}/forgot/verification`: step 2, the mailed code. */
export function ForgotPasswordCodePage() {
  const { msp = '' } = useParams();
  const [state] = useState(() => loadForgotPasswordState(msp));
  if (state === null) return <Navigate to={`/${msp}/forgot`} replace />;
  return <ForgotPasswordCodeStep msp={msp} state={state} />;
}

function ForgotPasswordCodeStep({ msp, state }: { msp: string; state: TForgotPasswordState }) {
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(MESSAGES.auth.resetCodeSent);
  const validate = useMutation({ mutationFn: (value: string) => validateResetCode(msp, state.userKind, state.email, value) });
  const resend = useMutation({ mutationFn: () => requestPasswordReset(msp, state.userKind, state.email) });

  function submitCode(value: string) {
    if (validate.isPending) return;
    if (!/^\d{6}$/.test(value)) {
      setError(MESSAGES.verificationCodeRequired);
      return;
    }
    setError(null);
    setNotice(null);
    validate.mutate(value, {
      onSuccess: () => {
        saveForgotPasswordState(msp, { ...state, code: value });
        void navigate(`/${msp}/forgot/verification/createpassword`);
      },
      onError: (cause) => {
        // R-108 logs the failure; the code is still refused, and the user has to know why they cannot go on.
        console.error('validateResetToken failed', cause);
        setError(errorDetail(cause));
        setCode('');
      },
    });
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    submitCode(code);
  }

  function handleResend() {
    setError(null);
    setCode('');
    resend.mutate(undefined, {
      onError: (cause) => {
        console.error('forgotPassword failed', cause);
        // No new code is on its way: say why (R-108 logs the rest).
        if (isNothingDoneFailure(cause)) setError(errorDetail(cause));
      },
      onSuccess: () => setNotice(MESSAGES.verificationCodeResent),
    });
  }

  return (
    <MspAuthFrame customDomain={msp} title={() => 'Enter your verification code'}>
      {() => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <Text size="sm">Code for {state.email}</Text>
            <VerificationCodeInput label="Verification code" value={code} onChange={setCode} onComplete={submitCode} hasError={error !== null} />
            <FormError message={error} />
            <FormNotice message={notice} />
            <Button type="submit" loading={validate.isPending}>
              Verify
            </Button>
            <Group justify="space-between">
              <Anchor component="button" type="button" size="sm" onClick={handleResend} disabled={resend.isPending}>
                Resend code
              </Anchor>
              <Anchor component={Link} to={`/${msp}/forgot`} size="sm">
                Use a different email
              </Anchor>
            </Group>
          </Stack>
        </form>
      )}
    </MspAuthFrame>
  );
}
