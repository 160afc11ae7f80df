import { Suspense, lazy, useState } from 'react';
import { Anchor, Button, Center, Divider, Group, Loader, Stack } from '@mantine/core';
import { Link, useLocation, useSearchParams } from 'react-router';
import { CORE_MESSAGES } from '@switchboard/contracts';
import type { TMspSignInPage } from '@switchboard/contracts';
import { lookupAccount, oidcStartUrl } from '../api/auth-api';
import { useOidcProviders } from '../api/auth-queries';
import { AuthLayout } from '../components/auth-layout';
import { EmailStepForm, useEmailStep } from '../components/email-step';
import { FormNotice } from '../components/form-error';
import { mspSignInPagesOf } from '../lib/error-message';
import { noticeState, readNotice } from '../lib/flow-notice';
import { errorDetail } from '../../../lib/api-client';

const loadPasswordStep = () => import('../components/account-password-step');
const AccountPasswordStep = lazy(() => loadPasswordStep().then((module) => ({ default: module.AccountPasswordStep })));

const KIND_WORD = { technician: 'technician', client: 'client' } as const;

/** Links to the MSP login pages an email of technicians or clients belongs on, each opening on the right side. */
function MspSignInPageLinks({ pages }: { pages: TMspSignInPage[] }) {
  if (pages.length === 0) return null;
  return (
    <Stack component="ul" gap={4} m={0} pl="lg" aria-label="Service provider sign-in pages">
      {pages.map((page) => (
        <li key={`${page.mspCustomDomain}-${page.userKind}`}>
          <Anchor
            component={Link}
            to={`/${page.mspCustomDomain}`}
            state={noticeState(`Sign in as a ${KIND_WORD[page.userKind]} of ${page.mspName}.`, page.userKind === 'technician' ? 'tech' : 'client')}
          >
            {page.mspName} — {KIND_WORD[page.userKind]} sign-in (/{page.mspCustomDomain})
          </Anchor>
        </li>
      ))}
    </Stack>
  );
}

/** `/auth/login`: general accounts by email and password, or a provider. */
export function GeneralLoginPage() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const providers = useOidcProviders();
  // A session that ended sends its person here with the page they were on; a provider sign-in goes back there too.
  const returnTo = searchParams.get('returnTo');
  const [step, setStep] = useState<'email' | 'password'>('email');
  const [mspPages, setMspPages] = useState<TMspSignInPage[]>([]);
  const emailStep = useEmailStep({
    initialError: searchParams.get('error') === null ? null : CORE_MESSAGES.microsoftLoginError,
    lookup: (emailId: string) => {
      setMspPages([]);
      void loadPasswordStep();
      return lookupAccount(emailId);
    },
    onFound: (account) => {
      if (!account.hasPassword) emailStep.setError(CORE_MESSAGES.providerAccount);
      else setStep('password');
    },
    // A technician's or client's email is told which MSP page to use (issue #6 §6).
    onFailed: (cause) => {
      emailStep.setError(errorDetail(cause));
      void mspSignInPagesOf(cause).then(setMspPages, () => setMspPages([]));
    },
  });

  return (
    <AuthLayout title="Sign in">
      <FormNotice message={readNotice(location.state)} />
      {step === 'email' ? (
        <EmailStepForm step={emailStep} submitLabel="Continue">
          <MspSignInPageLinks pages={mspPages} />
        </EmailStepForm>
      ) : (
        <Suspense
          fallback={
            <Center py="md">
              <Loader aria-label="Loading" />
            </Center>
          }
        >
          <AccountPasswordStep
            email={emailStep.email.trim()}
            onUseDifferentEmail={() => {
              emailStep.setError(null);
              setStep('email');
            }}
          />
        </Suspense>
      )}
      {providers.data && (providers.data.microsoft || providers.data.google) ? (
        <Stack gap="xs">
          <Divider label="or" labelPosition="center" />
          {providers.data.microsoft ? (
            <Button component="a" href={oidcStartUrl('microsoft', returnTo)} variant="default">
              Sign in with Microsoft
            </Button>
          ) : null}
          {providers.data.google ? (
            <Button component="a" href={oidcStartUrl('google', returnTo)} variant="default">
              Sign in with Google
            </Button>
          ) : null}
        </Stack>
      ) : null}
      <Divider />
      <Stack gap={4}>
        <Group justify="space-between">
          <Anchor component={Link} to="/auth/login/tech" size="sm">
            Technician sign in
          </Anchor>
          <Anchor component={Link} to="/auth/login/client" size="sm">
            Client sign in
          </Anchor>
        </Group>
        <Group justify="space-between">
          <Anchor component={Link} to="/auth/signup" size="sm">
            Create an account
          </Anchor>
          <Anchor component={Link} to="/msp/signup" size="sm">
            Sign up your MSP
          </Anchor>
        </Group>
      </Stack>
    </AuthLayout>
  );
}
