import { useState, type FormEvent } from 'react';
import { Button, FileInput, Group, PasswordInput, Stack, Stepper, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { LOGO_TYPES, MESSAGES } from '@switchboard/contracts';
import type { TCreateMspResponse } from '@switchboard/contracts';
import { addFirstTechnician, createMsp, isCustomDomainFree } from '../api/auth-api';
import { AuthLayout } from '../components/auth-layout';
import { FormError } from '../components/form-error';
import { PasswordRuleList } from '../components/password-rule-list';
import { noticeState } from '../lib/flow-notice';
import { clearMspSignupState, loadMspSignupState, saveMspSignupState } from '../lib/msp-signup-state';
import { firstTechnicianProblem, mspInfoProblem, type TFirstTechnicianForm, type TMspInfoForm } from '../lib/msp-signup-rules';
import '../../../app/styles/mantine-extra';
import '../components/password-input-styles';
import { errorDetail, isApiError } from '../../../lib/api-client';

const EMPTY_MSP: TMspInfoForm = { customDomain: '', mspName: '', webSiteUrl: '', companyPhoneNumber: '', logo: null };
const EMPTY_TECHNICIAN: TFirstTechnicianForm = { firstName: '', lastName: '', phoneNumber: '', email: '', password: '' };

/** The first technician of a new MSP always gets the built-in Admin role (decisions #6). */
const FIRST_TECHNICIAN_ROLE = 'Admin';

/**
 * `/msp/signup`: step 1 MSP info, step 2 first technician, then A-082 → A-035 with
 * the bootstrap token → the new MSP's login page.
 */
export function MspSignupPage() {
  const navigate = useNavigate();
  // An operator who limits sign-up to invitations sends `/msp/signup?invitation=CODE`; when sign-up
  // is off or the code is wrong, the server's 403 message is shown like any other failure.
  const [searchParams] = useSearchParams();
  const invitationCode = searchParams.get('invitation');
  // A sign-up this tab started and has not finished (a reload, a lost answer) goes on at step 2 with the same MSP.
  const [resumed] = useState(loadMspSignupState);
  const [active, setActive] = useState(resumed ? 1 : 0);
  const [mspInfo, setMspInfo] = useState<TMspInfoForm>(resumed ? { ...resumed.mspInfo, logo: null } : EMPTY_MSP);
  const [technician, setTechnician] = useState<TFirstTechnicianForm>(EMPTY_TECHNICIAN);
  const [error, setError] = useState<string | null>(null);
  // Kept so a failed step 2 can be retried without creating the MSP a second time. Once it exists, step 1 is
  // read-only (sign-up has no call to change it) and its Next does not ask about the domain again: the answer
  // would be this MSP, "already in use" (review s25 #5).
  const [createdMsp, setCreatedMsp] = useState<TCreateMspResponse | null>(resumed?.createdMsp ?? null);
  const isMspCreated = createdMsp !== null;

  const signUp = useMutation({
    mutationFn: async () => {
      let msp = createdMsp;
      if (msp === null) {
        const form = new FormData();
        form.set('customDomain', mspInfo.customDomain.trim().toLowerCase());
        form.set('mspName', mspInfo.mspName.trim());
        form.set('webSiteUrl', mspInfo.webSiteUrl.trim());
        form.set('companyPhoneNumber', mspInfo.companyPhoneNumber.trim());
        if (mspInfo.logo) form.set('file', mspInfo.logo);
        if (invitationCode) form.set('invitationCode', invitationCode);
        msp = await createMsp(form);
        setCreatedMsp(msp);
        const { logo: _logo, ...details } = mspInfo;
        saveMspSignupState({ createdMsp: msp, mspInfo: details });
      }
      await addFirstTechnician(msp.mspCustomDomain, msp.bootstrapToken, {
        firstName: technician.firstName.trim(),
        lastName: technician.lastName.trim(),
        phoneNumber: technician.phoneNumber.trim(),
        email: technician.email.trim(),
        password: technician.password,
      });
      return msp;
    },
    onSuccess: (msp) => {
      clearMspSignupState();
      // The new admin signs in next: their email is already filled in.
      void navigate(`/${msp.mspCustomDomain}`, { state: noticeState(MESSAGES.auth.mspSignupDone, 'tech', technician.email.trim()) });
    },
    onError: (cause) => {
      // An expired or spent sign-up token: that MSP cannot be finished here, so step 1 is open again for a new one.
      if (isApiError(cause) && cause.code === 'unauthenticated') {
        setCreatedMsp(null);
        clearMspSignupState();
      }
      setError(errorDetail(cause));
    },
  });

  const domainCheck = useMutation({ mutationFn: isCustomDomainFree });

  function handleMspInfoSubmit(event: FormEvent) {
    event.preventDefault();
    if (isMspCreated) {
      setError(null);
      setActive(1);
      return;
    }
    const problem = mspInfoProblem(mspInfo);
    setError(problem);
    if (problem !== null) return;
    // A taken domain is said on step 1, before the person fills in step 2.
    domainCheck.mutate(mspInfo.customDomain.trim().toLowerCase(), {
      onSuccess: (isFree) => {
        if (isFree) setActive(1);
        else setError(MESSAGES.customDomainTaken);
      },
      onError: (cause) => setError(errorDetail(cause)),
    });
  }

  function handleTechnicianSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = firstTechnicianProblem(technician);
    setError(problem);
    if (problem === null) signUp.mutate();
  }

  const mspField = (name: Exclude<keyof TMspInfoForm, 'logo'>) => ({
    value: mspInfo[name],
    readOnly: isMspCreated,
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setMspInfo((current) => ({ ...current, [name]: value }));
    },
  });
  const technicianField = (name: keyof TFirstTechnicianForm) => ({
    value: technician[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setTechnician((current) => ({ ...current, [name]: value }));
    },
  });

  // On a phone the two steps did not fit side by side: step 2 wrapped under step 1, leaving its connector dangling (visual review s29).
  const isNarrow = useMediaQuery('(max-width: 30em)') === true;

  return (
    <AuthLayout title="Sign up your MSP">
      <Stepper active={active} allowNextStepsSelect={false} size="sm" orientation={isNarrow ? 'vertical' : 'horizontal'}>
        <Stepper.Step label="Your MSP" description="Company details">
          <form onSubmit={handleMspInfoSubmit} noValidate>
            <Stack mt="md">
              <TextInput
                label="Custom domain"
                description="Your sign-in page will be /your-domain"
                required
                {...mspField('customDomain')}
              />
              <TextInput label="MSP name" required autoComplete="organization" {...mspField('mspName')} />
              <TextInput label="Website URL" type="url" required autoComplete="url" {...mspField('webSiteUrl')} />
              <TextInput label="Company phone number" type="tel" required autoComplete="tel" {...mspField('companyPhoneNumber')} />
              <FileInput
                label="Logo (optional)"
                description="PNG, JPEG, GIF, SVG or WebP, up to 2 MB"
                accept={LOGO_TYPES.join(',')}
                clearable={!isMspCreated}
                readOnly={isMspCreated}
                value={mspInfo.logo}
                onChange={(logo) => setMspInfo((current) => ({ ...current, logo }))}
              />
              {isMspCreated && (
                <Text size="sm" role="status">
                  {MESSAGES.mspSignupDetailsSaved}
                </Text>
              )}
              <FormError message={error} />
              <Group justify="flex-end">
                <Button type="submit" loading={domainCheck.isPending}>
                  Next
                </Button>
              </Group>
            </Stack>
          </form>
        </Stepper.Step>
        <Stepper.Step label="First technician" description="Your admin account">
          <form onSubmit={handleTechnicianSubmit} noValidate>
            <Stack mt="md">
              <Group grow>
                <TextInput label="First name" required autoComplete="given-name" {...technicianField('firstName')} />
                <TextInput label="Last name" required autoComplete="family-name" {...technicianField('lastName')} />
              </Group>
              <TextInput label="Role" required readOnly value={FIRST_TECHNICIAN_ROLE} />
              <TextInput label="Phone number" type="tel" required autoComplete="tel" {...technicianField('phoneNumber')} />
              <TextInput label="Email" type="email" required autoComplete="email" {...technicianField('email')} />
              <PasswordInput label="Password" required autoComplete="new-password" {...technicianField('password')} />
              <PasswordRuleList password={technician.password} />
              <FormError message={error} />
              <Group justify="space-between">
                <Button
                  variant="default"
                  onClick={() => {
                    setError(null);
                    setActive(0);
                  }}
                  disabled={signUp.isPending}
                >
                  Back
                </Button>
                <Button type="submit" loading={signUp.isPending}>
                  Create MSP
                </Button>
              </Group>
            </Stack>
          </form>
        </Stepper.Step>
      </Stepper>
    </AuthLayout>
  );
}

