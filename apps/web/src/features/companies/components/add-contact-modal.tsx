import { useRef, useState } from 'react';
import { Alert, Button, Group, List, Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MESSAGES } from '@switchboard/contracts';
import type { TCompany } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { MODAL_CLOSE_BUTTON_PROPS } from '../../employees/form-styles';
import { useAddContact, useCommunicationTypes } from '../api/companies-queries';

type TAddContactModalProps = {
  mspCustomDomain: string;
  company: Pick<TCompany, 'psaCompanyId' | 'psaType' | 'name'>;
  opened: boolean;
  onClose: () => void;
};

const EMPTY = { firstName: '', lastName: '', email: '', phone: '', emailTypeId: null as string | null, phoneTypeId: null as string | null };

/** the add-contact form. A PSA that is down leaves the contact pending; a refusal shows the PSA's words. */
export function AddContactModal({ mspCustomDomain, company, opened, onClose }: TAddContactModalProps) {
  const [values, setValues] = useState(EMPTY);
  const addContact = useAddContact(mspCustomDomain);
  // One key per contact being added: a resubmit after a lost answer is the same add, never a second contact.
  const idempotencyKey = useRef(crypto.randomUUID());
  const communicationTypes = useCommunicationTypes(mspCustomDomain, opened && company.psaType === 'CONNECTWISE');
  const types = communicationTypes.data ?? [];
  const emailTypes = types.filter((type) => type.isEmail === true).map((type) => ({ value: String(type.id), label: type.name }));
  const phoneTypes = types.filter((type) => type.isPhone === true).map((type) => ({ value: String(type.id), label: type.name }));

  const set = (field: keyof typeof EMPTY) => (value: string | null) => setValues((current) => ({ ...current, [field]: value ?? '' }));

  function handleClose() {
    addContact.reset();
    setValues(EMPTY);
    idempotencyKey.current = crypto.randomUUID();
    onClose();
  }

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    addContact.mutate(
      {
        psaType: company.psaType,
        psaCompanyId: company.psaCompanyId,
        firstName: values.firstName,
        lastName: values.lastName,
        email: values.email,
        phone: values.phone,
        emailTypeId: values.emailTypeId ? Number(values.emailTypeId) : null,
        phoneTypeId: values.phoneTypeId ? Number(values.phoneTypeId) : null,
        idempotencyKey: idempotencyKey.current,
      },
      {
        onSuccess: ({ contact }) => {
          notifications.show(
            contact.status === 'pending'
              ? { color: 'yellow', title: 'Contact saved, waiting for the PSA', message: `${contact.firstName} ${contact.lastName} will be added to ${company.name} as soon as the PSA answers again.` }
              : { color: 'green', title: 'Contact added', message: `${contact.firstName} ${contact.lastName} was added to ${company.name}.` },
          );
          handleClose();
        },
        onError: (error) => {
          // A refusal is final for these values: the next submit is a new add.
          if (isApiError(error) && error.status !== 0) idempotencyKey.current = crypto.randomUUID();
        },
      },
    );
  }

  const error = addContact.error;
  return (
    <Modal opened={opened} onClose={handleClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={`Add a contact to ${company.name}`}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack>
          {error ? (
            <Alert color="red" title="The contact was not added" role="alert">
              {isApiError(error) ? error.detail : MESSAGES.unexpectedError}
              {isApiError(error) && error.invalidParams.length > 0 ? (
                <List size="sm" mt="xs">
                  {error.invalidParams.map((param) => (
                    <List.Item key={`${param.name}:${param.reason}`}>{param.reason}</List.Item>
                  ))}
                </List>
              ) : null}
            </Alert>
          ) : null}
          <Group grow>
            <TextInput label="First name" required value={values.firstName} onChange={(event) => set('firstName')(event.currentTarget.value)} maxLength={50} />
            <TextInput label="Last name" required value={values.lastName} onChange={(event) => set('lastName')(event.currentTarget.value)} maxLength={50} />
          </Group>
          <TextInput label="Email" type="email" value={values.email} onChange={(event) => set('email')(event.currentTarget.value)} />
          <TextInput label="Phone" type="tel" value={values.phone} onChange={(event) => set('phone')(event.currentTarget.value)} />
          {emailTypes.length > 0 || phoneTypes.length > 0 ? (
            <Group grow>
              <Select label="Email type" placeholder="PSA default" data={emailTypes} value={values.emailTypeId} onChange={set('emailTypeId')} clearable />
              <Select label="Phone type" placeholder="PSA default" data={phoneTypes} value={values.phoneTypeId} onChange={set('phoneTypeId')} clearable />
            </Group>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={handleClose}>
              Cancel
            </Button>
            <Button type="submit" loading={addContact.isPending}>
              Add contact
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
