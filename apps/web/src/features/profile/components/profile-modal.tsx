import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { MESSAGES } from '@switchboard/contracts';
import type { TSessionMspUser } from '@switchboard/contracts';
import { profileSaveErrorMessage, useSaveProfile } from '../api/profile-queries';
import type { TProfileFields } from '../api/profile-queries';

const NAME_MAX = 100;
const PHONE_MAX = 40;

function required(label: string) {
  return (value: string) => (value.trim() === '' ? `${label} is required.` : null);
}

/** 02 §6 profile: the signed-in user edits their own first name, last name and phone. */
export function ProfileModal({ user, onClose }: { user: TSessionMspUser; onClose: () => void }) {
  const saveProfile = useSaveProfile(user);
  const form = useForm<TProfileFields>({
    initialValues: { firstName: user.firstName, lastName: user.lastName, phoneNumber: user.phoneNumber },
    validate: { firstName: required('First name'), lastName: required('Last name') },
  });

  function handleSubmit(fields: TProfileFields) {
    saveProfile.mutate(
      { firstName: fields.firstName.trim(), lastName: fields.lastName.trim(), phoneNumber: fields.phoneNumber.trim() },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', title: MESSAGES.profileSaved, message: '' });
          onClose();
        },
      },
    );
  }

  return (
    <Modal opened onClose={onClose} title="Your profile">
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
    </Modal>
  );
}
