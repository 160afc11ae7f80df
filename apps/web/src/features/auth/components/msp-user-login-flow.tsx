import { Suspense, lazy, useRef, useState } from 'react';
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { CORE_MESSAGES } from '@switchboard/contracts';
import type { TMspDomainChoice } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
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
  /**
   * Set where the page can switch between technician and client: an e-mail unknown as `userKind` is then looked up as
   * the other kind too, and when it belongs there (at `fixedMspDomain`, if set) a hint offers this switch.
   */
  onChooseOtherKind?: (kind: TLoginUserKind, email: string) => void;
}

/** The MSPs of a lookup answer this page may sign in to: all of them, or the page's own MSP. */
function choicesFor(mspDomains: TMspDomainChoice[], fixedMspDomain: string | undefined): TMspDomainChoice[] {
  return fixedMspDomain === undefined ? mspDomains : mspDomains.filter((msp) => msp.mspCustomDomain === fixedMspDomain);
}

/**
 * Technician and client sign-in (02 §4, R-052–R-062): email → MSP choice when the email belongs to
 * several MSPs → password → 6-digit code → `/{msp}/dashboard/{id}/tickets`. The steps after the
 * email load while the email is looked up (issue #6 §5: they are not part of the first load).
 */
export function MspUserLoginFlow({ userKind, fixedMspDomain, buttonColour, initialEmail, onChooseOtherKind }: TMspUserLoginFlowProps) {
  const [laterStep, setLaterStep] = useState<TLaterStep | null>(null);
  const otherKind: TLoginUserKind = userKind === 'tech' ? 'client' : 'tech';
  // The e-mail last sent to the lookup, and the one found as the other kind (the hint shows only while it is typed).
  const lookedUpEmail = useRef('');
  const [otherKindEmail, setOtherKindEmail] = useState<string | null>(null);

  /**
   * The same public lookup the other side of the toggle makes: it already answers anyone whether an
   * e-mail has an account of either kind, so asking it here tells nobody more than the toggle would.
   */
  async function checkOtherKind(emailId: string) {
    if (onChooseOtherKind === undefined) return;
    try {
      const { mspDomains } = await lookupMspDomains(otherKind, emailId);
      if (choicesFor(mspDomains, fixedMspDomain).length > 0 && lookedUpEmail.current === emailId) setOtherKindEmail(emailId);
    } catch {
      // The hint is a convenience: without it the person still has the spec's message.
    }
  }

  const emailStep = useEmailStep({
    initialEmail,
    lookup: (emailId: string) => {
      void loadLaterSteps();
      lookedUpEmail.current = emailId;
      setOtherKindEmail(null);
      return lookupMspDomains(userKind, emailId);
    },
    onFound: ({ mspDomains }, emailId) => {
      const choices = choicesFor(mspDomains, fixedMspDomain);
      const [first] = choices;
      if (first === undefined) {
        emailStep.setError(CORE_MESSAGES.accountDoesNotExist);
        void checkOtherKind(emailId);
      } else setLaterStep(choices.length === 1 ? { name: 'password', msp: first } : { name: 'choose-msp', choices });
    },
    onFailed: (cause) => {
      emailStep.setError(errorDetail(cause));
      if (isApiError(cause) && cause.code === 'account_not_found') void checkOtherKind(lookedUpEmail.current);
    },
  });

  if (laterStep === null) {
    const trimmedEmail = emailStep.email.trim();
    const isOtherKindHintShown = onChooseOtherKind !== undefined && otherKindEmail !== null && otherKindEmail === trimmedEmail && emailStep.error !== null;
    return (
      <EmailStepForm step={emailStep} submitLabel="Continue" buttonColour={buttonColour}>
        {isOtherKindHintShown && (
          <Stack gap="xs" role="status">
            <Text size="sm">{CORE_MESSAGES.auth.otherKindFound[otherKind]}</Text>
            <Button type="button" variant="light" color={buttonColour} onClick={() => onChooseOtherKind(otherKind, trimmedEmail)}>
              {CORE_MESSAGES.auth.switchToKind[otherKind]}
            </Button>
          </Stack>
        )}
      </EmailStepForm>
    );
  }
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
