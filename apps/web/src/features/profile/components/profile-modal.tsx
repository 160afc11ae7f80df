import { useEffect, useRef } from 'react';
import { Alert, Button, Divider, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { MESSAGES, PROFILE_NAME_PATTERN } from '@switchboard/contracts';
import type { TSessionMspUser } from '@switchboard/contracts';
import { profileSaveErrorMessage, useSaveProfile } from '../api/profile-queries';
import type { TProfileFields } from '../api/profile-queries';
import { AuthenticatorAppSection } from './authenticator-app-section';

const NAME_MAX = 100;
const PHONE_MAX = 40;

type TProfileModalProps = { user: TSessionMspUser; opened: boolean; onClose: () => void };

/** A changed name must not be blank and takes letters of any language (an unchanged one is the PSA's, never refused). */
function nameCheck(label: string, stored: string) {
  return (value: string) => {
    const name = value.trim();
    if (name === stored) return null;
    if (name === '') return `${label} is required.`;
    return PROFILE_NAME_PATTERN.test(name) ? null : MESSAGES.profileNameInvalid;
  };
}

/**
 * The fields that differ from the stored user, trimmed. R-112 words the save as sending every field; we send only
 * the changed ones (review s25 #2): activation keeps the PSA's names and an empty phone, which the edit must not
 * refuse when the user did not touch them.
 */
export function changedProfileFields(user: TSessionMspUser, fields: TProfileFields): Partial<TProfileFields> {
  const stored: TProfileFields = { firstName: user.firstName, lastName: user.lastName, phoneNumber: user.phoneNumber };
  const changed: Partial<TProfileFields> = {};
  for (const key of ['firstName', 'lastName', 'phoneNumber'] as const) {
    const value = fields[key].trim();
    if (value !== stored[key]) changed[key] = value;
  }
  return changed;
}

/** What gets the focus back: the element itself, or for an item of a menu (the account menu) the menu's button. */
function focusTargetFor(element: Element | null): HTMLElement | null {
  if (!(element instanceof HTMLElement) || element === document.body) return null;
  // An item's menu may be gone from the page already; its own subtree still knows which button it belonged to.
  const menu = element.closest('[role="menu"]');
  const menuButton = menu ? document.getElementById(menu.getAttribute('aria-labelledby') ?? '') : null;
  return menuButton ?? element;
}

/**
 * Gives the focus back to what opened the dialog when it closes (review s25 #9). Mantine's own return records the
 * focus when the dialog opens, but the account menu has closed by then (at once with reduced motion), so it saw the
 * page body or a vanished menu item. The last element focused while the dialog was closed is kept instead, and the
 * focus moves back only when the closing left it in place or on the body, as Mantine's rule does.
 */
function useFocusBackToOpener(opened: boolean) {
  const lastFocused = useRef<Element | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (opened) return undefined;
    const remember = (event: FocusEvent) => {
      lastFocused.current = event.target instanceof Element ? event.target : null;
    };
    document.addEventListener('focusin', remember);
    return () => document.removeEventListener('focusin', remember);
  }, [opened]);
  useEffect(() => {
    const active = document.activeElement;
    if (opened) {
      opener.current = focusTargetFor(active !== null && active !== document.body ? active : lastFocused.current);
      return undefined;
    }
    const target = opener.current;
    if (!target) return undefined;
    const timer = window.setTimeout(() => {
      const now = document.activeElement;
      if ((now === null || now === document.body || now === active) && target.isConnected) target.focus({ preventScroll: true });
    }, 10);
    return () => window.clearTimeout(timer);
  }, [opened]);
}

/** 02 §6 profile: the signed-in user edits their own first name, last name and phone, and their authenticator app (decisions #16). Kept mounted so focus returns. */
export function ProfileModal({ user, opened, onClose }: TProfileModalProps) {
  useFocusBackToOpener(opened);
  return (
    <Modal opened={opened} onClose={onClose} returnFocus={false} title="Your profile">
      {/* The form mounts with each opening, so it starts from the saved values and without an old error. */}
      <ProfileForm user={user} onClose={onClose} />
      <Divider my="md" />
      <AuthenticatorAppSection user={user} />
    </Modal>
  );
}

function ProfileForm({ user, onClose }: Omit<TProfileModalProps, 'opened'>) {
  const saveProfile = useSaveProfile(user);
  const form = useForm<TProfileFields>({
    initialValues: { firstName: user.firstName, lastName: user.lastName, phoneNumber: user.phoneNumber },
    validate: { firstName: nameCheck('First name', user.firstName), lastName: nameCheck('Last name', user.lastName) },
  });

  function handleSubmit(fields: TProfileFields) {
    const changed = changedProfileFields(user, fields);
    if (Object.keys(changed).length === 0) {
      onClose();
      return;
    }
    saveProfile.mutate(changed, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: MESSAGES.profileSaved, message: '' });
        onClose();
      },
    });
  }

  return (
    <form onSubmit={form.onSubmit(handleSubmit)} noValidate>
      <Stack>
        {saveProfile.isError && (
          <Alert color="red" role="alert">
            {profileSaveErrorMessage(saveProfile.error)}
          </Alert>
        )}
        <TextInput label="Email" value={user.email} readOnly description="Your email is your sign-in and cannot be changed here." />
        <TextInput label="First name" required maxLength={NAME_MAX} autoComplete="given-name" data-autofocus {...form.getInputProps('firstName')} />
        <TextInput label="Last name" required maxLength={NAME_MAX} autoComplete="family-name" {...form.getInputProps('lastName')} />
        <TextInput label="Phone number" type="tel" maxLength={PHONE_MAX} autoComplete="tel" {...form.getInputProps('phoneNumber')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={saveProfile.isPending}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
