import { Suspense, lazy, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { CORE_MESSAGES } from '@switchboard/contracts';
import { lookupMspDomains } from '../api/auth-api';
import type { TLoginUserKind } from '../lib/user-kind';
import { EmailStepForm, useEmailStep } from './email-step';
import type { TLaterStep } from './msp-login-later-steps';

const loadLaterSteps = () => import('./msp-login-later-steps');
const MspLoginLaterSteps = lazy(() => loadLaterSteps().then((module) => ({ default: module.MspLoginLaterSteps })));

interface TMspUserLoginFlowProps {
  userKind: TLoginUserKind;
  /** Set on an MSP's own login page: the email must belong to this MSP. */
  fixedMspDomain?: string;
  buttonColour?: string;
  /** Filled in when a flow that ended on the login page knows who is signing in (MSP sign-up). */
  initialEmail?: string;
}

/**
 * Technician and client sign-in (02 §4, R-052–R-062): email → MSP choice when the email belongs to
 * several MSPs → password → 6-digit code → `/{msp}/dashboard/{id}/tickets`. The steps after the
 * email load while the email is looked up (issue #6 §5: they are not part of the first load).
 */
export function MspUserLoginFlow({ userKind, fixedMspDomain, buttonColour, initialEmail }: TMspUserLoginFlowProps) {
  const [laterStep, setLaterStep] = useState<TLaterStep | null>(null);
  const emailStep = useEmailStep({
    initialEmail,
    lookup: (emailId: string) => {
      void loadLaterSteps();
      return lookupMspDomains(userKind, emailId);
    },
    onFound: ({ mspDomains }) => {
      const choices = fixedMspDomain === undefined ? mspDomains : mspDomains.filter((msp) => msp.mspCustomDomain === fixedMspDomain);
      const [first] = choices;
      if (first === undefined) emailStep.setError(CORE_MESSAGES.accountDoesNotExist);
      else setLaterStep(choices.length === 1 ? { name: 'password', msp: first } : { name: 'choose-msp', choices });
    },
  });

  if (laterStep === null) return <EmailStepForm step={emailStep} submitLabel="Continue" buttonColour={buttonColour} />;
  return (
    <Suspense
      fallback={
        <Center py="md">
          <Loader aria-label="Loading" />
        </Center>
      }
    >
      <MspLoginLaterSteps
        userKind={userKind}
        email={emailStep.email.trim()}
        firstStep={laterStep}
        fixedMspDomain={fixedMspDomain}
        buttonColour={buttonColour}
        onStartOver={() => setLaterStep(null)}
      />
    </Suspense>
  );
}
