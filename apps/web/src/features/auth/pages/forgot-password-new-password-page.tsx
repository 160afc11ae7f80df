import { useState, type FormEvent } from 'react';
import { Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { MESSAGES } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import { isNothingDoneFailure } from '../lib/error-message';
import { changePassword } from '../api/auth-steps-api';
import { FormError } from '../components/form-error';
import { MspAuthFrame } from '../components/msp-auth-frame';
import { PasswordRuleList } from '../components/password-rule-list';
import { noticeState } from '../lib/flow-notice';
import { newPasswordProblem } from '../lib/new-password-rules';
import { clearForgotPasswordState, loadForgotPasswordState, type TForgotPasswordState } from '../lib/forgot-password-state';
import '../components/password-input-styles';

/** `/{msp}/forgot/verification/createpassword`: step 3, then back to `/{msp}`. */
export function ForgotPasswordNewPasswordPage() {
  const { msp = '' } = useParams();
  const [state] = useState(() => loadForgotPasswordState(msp));
  if (state === null) return <Navigate to={`/${msp}/forgot`} replace />;
  if (state.code === null) return <Navigate to={`/${msp}/forgot/verification`} replace />;
  return <NewPasswordStep msp={msp} state={state} code={state.code} />;
}

function NewPasswordStep({ msp, state, code }: { msp: string; state: TForgotPasswordState; code: string }) {
  const navigate = useNavigate();
  const [newPassword, setNewPassword] = useState('');
  const [verifyPassword, setVerifyPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isCodeRejected, setIsCodeRejected] = useState(false);
  const change = useMutation({ mutationFn: () => changePassword(msp, state.userKind, code, { emailId: state.email, password: newPassword }) });

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = newPasswordProblem(newPassword, verifyPassword);
    setError(problem);
    if (problem !== null) return;
    change.mutate(undefined, {
      onSuccess: () => {
        clearForgotPasswordState(msp);
        void navigate(`/${msp}`, { state: noticeState(MESSAGES.auth.passwordChanged, state.userKind) });
      },
      onError: (cause) => {
        // R-108 logs the failure; an expired code must still be explained, or the user is stuck here.
        console.error('changePassword failed', cause);
        if (isApiError(cause) && cause.code === 'invalid_code') {
          setIsCodeRejected(true);
          setError(cause.detail);
        } else if (isNothingDoneFailure(cause)) {
          setError(errorDetail(cause));
        }
      },
    });
  }

  return (
    <MspAuthFrame customDomain={msp} title={() => 'Choose a new password'}>
      {() => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              required
              value={newPassword}
              onChange={(event) => setNewPassword(event.currentTarget.value)}
            />
            <PasswordInput
              label="Verify password"
              autoComplete="new-password"
              required
              value={verifyPassword}
              onChange={(event) => setVerifyPassword(event.currentTarget.value)}
            />
            <PasswordRuleList password={newPassword} />
            <FormError message={error} />
            {isCodeRejected ? (
              <Anchor component={Link} to={`/${msp}/forgot`} size="sm">
                {MESSAGES.auth.resetStartOver}
              </Anchor>
            ) : null}
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Stack>
        </form>
      )}
    </MspAuthFrame>
  );
}
