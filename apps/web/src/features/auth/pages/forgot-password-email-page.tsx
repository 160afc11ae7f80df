import { useState } from 'react';
import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { loadLastActiveUserType } from '../../../lib/local-storage';
import { requestPasswordReset } from '../api/auth-steps-api';
import { EmailStepForm, useEmailStep } from '../components/email-step';
import { MspAuthFrame } from '../components/msp-auth-frame';
import { UserKindToggle } from '../components/user-kind-toggle';
import { isNothingDoneFailure } from '../lib/error-message';
import { loadForgotPasswordState, saveForgotPasswordState } from '../lib/forgot-password-state';
import { errorDetail } from '../../../lib/api-client';
import type { TLoginUserKind } from '../lib/user-kind';

/** `/{msp}/forgot`: step 1, the email a reset code is mailed to. */
export function ForgotPasswordEmailPage() {
  const { msp = '' } = useParams();
  const navigate = useNavigate();
  const [userKind, setUserKind] = useState<TLoginUserKind>(() => loadForgotPasswordState(msp)?.userKind ?? loadLastActiveUserType());
  const emailStep = useEmailStep({
    initialEmail: loadForgotPasswordState(msp)?.email ?? '',
    lookup: (emailId: string) => {
      saveForgotPasswordState(msp, { userKind, email: emailId, code: null });
      return requestPasswordReset(msp, userKind, emailId);
    },
    onFound: () => void navigate(`/${msp}/forgot/verification`),
    // a failed forgot call is only logged; the next step's code check tells the user. One refused by the rate
    // limit or never sent stays here with its reason: no code is on its way.
    onFailed: (cause) => {
      console.error('forgotPassword failed', cause);
      if (isNothingDoneFailure(cause)) emailStep.setError(errorDetail(cause));
      else void navigate(`/${msp}/forgot/verification`);
    },
  });

  return (
    <MspAuthFrame customDomain={msp} title={() => 'Forgot password'}>
      {({ customDomain }) => (
        <Stack>
          <Text size="sm">Enter your email and we will send you a 6-digit verification code.</Text>
          <UserKindToggle value={userKind} onChange={setUserKind} />
          <EmailStepForm step={emailStep} submitLabel="Send code" />
          <Anchor component={Link} to={`/${customDomain}`} size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      )}
    </MspAuthFrame>
  );
}
