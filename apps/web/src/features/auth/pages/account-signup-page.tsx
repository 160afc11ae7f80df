import { useState, type FormEvent } from 'react';
import { Anchor, Button, Grid, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MESSAGES, OIDC_PROVIDERS, validateAccountSignup, validateProviderAccountDetails } from '@switchboard/contracts';
import type { TAccountSignedIn, TOidcProvider } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import { startSignedInSession } from '../../session/api/signed-in-session';
import { checkSignupEmail, createAccount, fetchPendingProviderIdentity, validateProviderUser } from '../api/auth-steps-api';
import { authKeys } from '../api/auth-queries';
import { AuthLayout } from '../components/auth-layout';
import { FormError } from '../components/form-error';
import { PasswordRuleList } from '../components/password-rule-list';
import '../../../app/styles/mantine-extra';
import '../components/password-input-styles';

interface TSignupForm {
  companyId: string;
  firstName: string;
  lastName: string;
  companyName: string;
  email: string;
  phoneNumber: string;
  street: string;
  city: string;
  state: string;
  zipcode: string;
  password: string;
}

const EMPTY_FORM: TSignupForm = {
  companyId: '',
  firstName: '',
  lastName: '',
  companyName: '',
  email: '',
  phoneNumber: '',
  street: '',
  city: '',
  state: '',
  zipcode: '',
  password: '',
};

/** A rejected form keeps the server's spec message (400 / 409); anything else is R-086's generic one. */
function signupFailureMessage(error: unknown): string {
  if (isApiError(error) && (error.status === 400 || error.status === 409)) return error.detail;
  return MESSAGES.signupError;
}

/**
 * `/auth/signup`: the account sign-up form, or with `?provider=…&pending=1`
 * the business details that complete an account started with Google or Microsoft.
 */
export function AccountSignupPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const namedProvider = OIDC_PROVIDERS.find((candidate) => candidate === searchParams.get('provider'));
  const provider: TOidcProvider | null = namedProvider !== undefined && searchParams.get('pending') === '1' ? namedProvider : null;
  const [form, setForm] = useState<TSignupForm>(EMPTY_FORM);
  const [error, setError] = useState<string | null>(null);

  const pendingIdentity = useQuery({
    queryKey: authKeys.oidcPending(),
    queryFn: fetchPendingProviderIdentity,
    enabled: provider !== null,
    retry: false,
  });
  const [prefilledFrom, setPrefilledFrom] = useState<string | null>(null);
  if (pendingIdentity.data && prefilledFrom !== pendingIdentity.data.email) {
    // Prefill once per identity, during render, so the user can still edit the names afterwards.
    setPrefilledFrom(pendingIdentity.data.email);
    setForm((current) => ({
      ...current,
      email: pendingIdentity.data.email,
      firstName: current.firstName || pendingIdentity.data.firstName,
      lastName: current.lastName || pendingIdentity.data.lastName,
    }));
  }

  const signUp = useMutation({
    mutationFn: async (values: TSignupForm): Promise<TAccountSignedIn> => {
      const address = { street: values.street.trim(), city: values.city.trim(), state: values.state.trim(), zipcode: values.zipcode.trim() };
      if (provider !== null) {
        return validateProviderUser(provider, {
          firstName: values.firstName.trim(),
          lastName: values.lastName.trim(),
          businessName: values.companyName.trim(),
          businessPhone: values.phoneNumber.trim(),
          address,
        });
      }
      await checkSignupEmail(values.email.trim());
      return createAccount({
        companyId: values.companyId.trim() === '' ? undefined : values.companyId.trim(),
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        companyName: values.companyName.trim(),
        email: values.email.trim(),
        phoneNumber: values.phoneNumber.trim(),
        companyAddress: address,
        password: values.password,
      });
    },
    onSuccess: ({ user, redirectTo }) => {
      startSignedInSession(queryClient, user);
      void navigate(redirectTo);
    },
    onError: (cause) => setError(signupFailureMessage(cause)),
  });

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const businessDetails = {
      phoneNumber: form.phoneNumber,
      firstName: form.firstName,
      lastName: form.lastName,
      companyName: form.companyName,
      companyAddress: { street: form.street, city: form.city, state: form.state, zipcode: form.zipcode },
    };
    // A provider account has no password and a provider-verified email; the rest keeps the 01 §5 order.
    const firstProblem =
      provider === null
        ? validateAccountSignup({ ...businessDetails, password: form.password, email: form.email })
        : validateProviderAccountDetails(businessDetails);
    setError(firstProblem);
    if (firstProblem === null) signUp.mutate(form);
  }

  const field = (name: keyof TSignupForm) => ({
    value: form[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setForm((current) => ({ ...current, [name]: value }));
    },
  });

  return (
    <AuthLayout
      title={provider === null ? 'Create your account' : 'Complete your account'}
      subtitle={provider === null ? undefined : `Signed in with ${provider === 'google' ? 'Google' : 'Microsoft'}. Tell us about your business.`}
    >
      {provider !== null && pendingIdentity.isError ? (
        // The provider identity waits only a few minutes server-side; without it A-067 cannot succeed.
        <Stack>
          <FormError
            message={isApiError(pendingIdentity.error) && pendingIdentity.error.status === 404 ? MESSAGES.auth.providerSignupExpired : errorDetail(pendingIdentity.error)}
          />
          <Anchor component={Link} to="/auth/login">
            Sign in with your provider again
          </Anchor>
        </Stack>
      ) : null}
      <form onSubmit={handleSubmit} noValidate>
        <Stack>
          {provider === null ? <TextInput label="Company ID (optional)" {...field('companyId')} /> : null}
          <Grid>
            <Grid.Col span={6}>
              <TextInput label="First name" required autoComplete="given-name" {...field('firstName')} />
            </Grid.Col>
            <Grid.Col span={6}>
              <TextInput label="Last name" required autoComplete="family-name" {...field('lastName')} />
            </Grid.Col>
          </Grid>
          <TextInput label="Business name" required autoComplete="organization" {...field('companyName')} />
          {provider === null ? (
            <TextInput label="Email" type="email" required autoComplete="email" {...field('email')} />
          ) : (
            <Text size="sm">Email: {form.email || '…'}</Text>
          )}
          <TextInput label="Phone number" type="tel" required autoComplete="tel" {...field('phoneNumber')} />
          <TextInput label="Street" required autoComplete="address-line1" {...field('street')} />
          <Grid>
            <Grid.Col span={5}>
              <TextInput label="City" required autoComplete="address-level2" {...field('city')} />
            </Grid.Col>
            <Grid.Col span={4}>
              <TextInput label="State" required autoComplete="address-level1" {...field('state')} />
            </Grid.Col>
            <Grid.Col span={3}>
              <TextInput label="Zip code" required autoComplete="postal-code" {...field('zipcode')} />
            </Grid.Col>
          </Grid>
          {provider === null ? (
            <>
              <PasswordInput label="Password" required autoComplete="new-password" {...field('password')} />
              <PasswordRuleList password={form.password} />
            </>
          ) : null}
          <FormError message={error} />
          <Button type="submit" loading={signUp.isPending}>
            {provider === null ? 'Sign up' : 'Finish'}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
