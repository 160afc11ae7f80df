import { useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { MESSAGES, isValidEmail } from '@switchboard/contracts';
import { loadLastActiveUserType } from '../../../lib/local-storage';
import { requestPasswordReset } from '../api/auth-api';
import { FormError } from '../components/form-error';
import { MspAuthFrame } from '../components/msp-auth-frame';
import { UserKindToggle } from '../components/user-kind-toggle';
import { loadForgotPasswordState, saveForgotPasswordState } from '../lib/forgot-password-state';
import type { TLoginUserKind } from '../lib/user-kind';
import { EmailField } from '../components/email-field';

/** `/{msp}/forgot`: step 1, the email a reset code is mailed to. */
export function ForgotPasswordEmailPage() {
  const { msp = '' } = useParams();
  const navigate = useNavigate();
  const [userKind, setUserKind] = useState<TLoginUserKind>(() => loadForgotPasswordState(msp)?.userKind ?? loadLastActiveUserType());
  const [email, setEmail] = useState(() => loadForgotPasswordState(msp)?.email ?? '');
  const [error, setError] = useState<string | null>(null);
  const requestCode = useMutation({ mutationFn: (value: string) => requestPasswordReset(msp, userKind, value) });

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (!isValidEmail(value)) {
      setError(MESSAGES.validEmailRequired);
      return;
    }
    setError(null);
    saveForgotPasswordState(msp, { userKind, email: value, code: null });
    requestCode.mutate(value, {
      // a failed forgot call is only logged; the next step's code check tells the user.
      onError: (cause) => console.error('forgotPassword failed', cause),
      onSettled: () => void navigate(`/${msp}/forgot/verification`),
    });
  }

  return (
    <MspAuthFrame customDomain={msp} title={() => 'Forgot password'}>
      {({ customDomain }) => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <Text size="sm">Enter your email and we will send you a 6-digit verification code.</Text>
            <UserKindToggle value={userKind} onChange={setUserKind} />
            <EmailField value={email} onChange={setEmail} />
            <FormError message={error} />
            <Button type="submit" loading={requestCode.isPending}>
              Send code
            </Button>
            <Anchor component={Link} to={`/${customDomain}`} size="sm">
              Back to sign in
            </Anchor>
          </Stack>
        </form>
      )}
    </MspAuthFrame>
  );
}
