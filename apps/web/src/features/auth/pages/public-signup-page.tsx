import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { TPublicSignupBody } from '@switchboard/contracts';
import { startSignedInSession } from '../../session/api/signed-in-session';
import { signUpPublicUser } from '../api/auth-steps-api';
import { AuthLayout } from '../components/auth-layout';
import { FormError } from '../components/form-error';
import { PasswordRuleList } from '../components/password-rule-list';
import { publicSignupProblem, type TPublicSignupForm } from '../lib/public-signup-rules';
import '../components/password-input-styles';
import { errorDetail } from '../../../lib/api-client';

const EMPTY_FORM: TPublicSignupForm = { firstName: '', lastName: '', phoneNumber: '', emailId: '', password: '' };

/** `/public/signup`. */
export function PublicSignupPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [form, setForm] = useState<TPublicSignupForm>(EMPTY_FORM);
  const [error, setError] = useState<string | null>(null);
  const signUp = useMutation({ mutationFn: (body: TPublicSignupBody) => signUpPublicUser(body) });

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = publicSignupProblem(form);
    setError(problem);
    if (problem !== null) return;
    signUp.mutate(
      {
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        phoneNumber: form.phoneNumber.trim(),
        emailId: form.emailId.trim(),
        password: form.password,
      },
      {
        onError: (cause) => setError(errorDetail(cause)),
        onSuccess: ({ user, redirectTo }) => {
          startSignedInSession(queryClient, user);
          void navigate(redirectTo);
        },
      },
    );
  }

  const field = (name: keyof TPublicSignupForm) => ({
    value: form[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setForm((current) => ({ ...current, [name]: value }));
    },
  });

  return (
    <AuthLayout title="Sign up">
      <form onSubmit={handleSubmit} noValidate>
        <Stack>
          <Group grow>
            <TextInput label="First name" required autoComplete="given-name" {...field('firstName')} />
            <TextInput label="Last name" required autoComplete="family-name" {...field('lastName')} />
          </Group>
          <TextInput label="Email" type="email" required autoComplete="email" {...field('emailId')} />
          <TextInput label="Phone number" type="tel" required autoComplete="tel" {...field('phoneNumber')} />
          <PasswordInput label="Password" required autoComplete="new-password" {...field('password')} />
          <PasswordRuleList password={form.password} />
          <FormError message={error} />
          <Button type="submit" loading={signUp.isPending}>
            Sign up
          </Button>
          <Anchor component={Link} to="/public" size="sm">
            Back
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
