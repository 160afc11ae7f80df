import { useRef, useState } from 'react';
import { Alert, Button, Group, List, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { MESSAGES } from '@switchboard/contracts';
import type { TCompany } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { MODAL_CLOSE_BUTTON_PROPS, READABLE_ERROR_STYLES } from '../../employees/form-styles';
import { useAddContact, useCommunicationTypes, useCompanies } from '../api/companies-queries';

type TContactCompany = Pick<TCompany, 'psaCompanyId' | 'psaType' | 'name'>;

type TAddContactModalProps = {
  mspCustomDomain: string;
  /** The company the contact joins; without one (the Contacts screen of a technician) the form asks for it. */
  company?: TContactCompany | undefined;
  opened: boolean;
  onClose: () => void;
};

/** The form's fields by the names the server gives them in invalidParams (A-044 body). */
const CONTACT_FIELDS = ['firstName', 'lastName', 'email', 'phone'] as const;
type TContactField = (typeof CONTACT_FIELDS)[number];

export const CHOOSE_COMPANY_MESSAGE = "Choose the contact's company.";

/** The form's company choice: the MSP's companies by name, searched on the server. */
function CompanySelect({ mspCustomDomain, value, onChange, error }: { mspCustomDomain: string; value: TCompany | null; onChange: (company: TCompany | null) => void; error?: string | undefined }) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const companies = useCompanies(mspCustomDomain, { page: 1, search: debouncedSearch.trim() === value?.name ? '' : debouncedSearch.trim(), clientType: 'all' });
  const items = companies.data?.items ?? [];
  // The chosen company stays an option while the search shows others.
  const options = value && !items.some((item) => item.id === value.id) ? [value, ...items] : items;
  return (
    <Select
      label="Company"
      placeholder="Search your client companies"
      required
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: shown }) => shown}
      data={options.map((company) => ({ value: company.id, label: company.name }))}
      value={value?.id ?? null}
      onChange={(id) => onChange(options.find((company) => company.id === id) ?? null)}
      nothingFoundMessage={companies.isPending ? 'Loading…' : 'No company matches'}
      error={error}
      styles={READABLE_ERROR_STYLES}
    />
  );
}

const EMPTY = { firstName: '', lastName: '', email: '', phone: '', emailTypeId: null as string | null, phoneTypeId: null as string | null };

/** the add-contact form. A PSA that is down leaves the contact pending; a refusal shows the PSA's words. */
export function AddContactModal({ mspCustomDomain, company: fixedCompany, opened, onClose }: TAddContactModalProps) {
  const [values, setValues] = useState(EMPTY);
  const [chosenCompany, setChosenCompany] = useState<TCompany | null>(null);
  const [companyError, setCompanyError] = useState<string | undefined>(undefined);
  const company: TContactCompany | null = fixedCompany ?? chosenCompany;
  const addContact = useAddContact(mspCustomDomain);
  // One key per contact being added: a resubmit after a lost answer is the same add, never a second contact.
  const idempotencyKey = useRef(crypto.randomUUID());
  /** The values the key was last sent with: a resubmit with any of them changed is another add, with a key of its own. */
  const keySentWith = useRef<string | null>(null);
  const communicationTypes = useCommunicationTypes(mspCustomDomain, opened && company?.psaType === 'CONNECTWISE');
  const types = communicationTypes.data ?? [];
  const emailTypes = types.filter((type) => type.isEmail === true).map((type) => ({ value: String(type.id), label: type.name }));
  const phoneTypes = types.filter((type) => type.isPhone === true).map((type) => ({ value: String(type.id), label: type.name }));

  const set = (field: keyof typeof EMPTY) => (value: string | null) => setValues((current) => ({ ...current, [field]: value ?? '' }));

  function handleClose() {
    addContact.reset();
    setValues(EMPTY);
    setChosenCompany(null);
    setCompanyError(undefined);
    idempotencyKey.current = crypto.randomUUID();
    keySentWith.current = null;
    onClose();
  }

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!company) {
      setCompanyError(CHOOSE_COMPANY_MESSAGE);
      return;
    }
    const companyName = company.name;
    // Review s29: after a lost answer the server holds the first values under this key, and would answer a changed
    // e-mail with them ("Contact added" for the old address).
    const sending = JSON.stringify([company.psaType, company.psaCompanyId, values]);
    if (keySentWith.current !== null && keySentWith.current !== sending) idempotencyKey.current = crypto.randomUUID();
    keySentWith.current = sending;
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
              ? { color: 'yellow', title: 'Contact saved, waiting for the PSA', message: `${contact.firstName} ${contact.lastName} will be added to ${companyName} as soon as the PSA answers again.` }
              : { color: 'green', title: 'Contact added', message: `${contact.firstName} ${contact.lastName} was added to ${companyName}.` },
          );
          handleClose();
        },
        onError: (error) => {
          // A refusal is final for these values: the next submit is a new add.
          if (isApiError(error) && error.status !== 0) {
            idempotencyKey.current = crypto.randomUUID();
            keySentWith.current = null;
          }
        },
      },
    );
  }

  const error = addContact.error;
  // A field's message (ours or the PSA's) sits at the field; the box above says the contact was not added and
  // lists only what belongs to no field. It repeated the first message twice ("First name is required." above the list).
  const params = isApiError(error) ? error.invalidParams : [];
  const fieldError = (name: TContactField) => params.find((param) => param.name === name)?.reason;
  const otherParams = params.filter((param) => !(CONTACT_FIELDS as readonly string[]).includes(param.name));
  const summary = !error ? null : !isApiError(error) ? MESSAGES.unexpectedError : params.some((param) => param.reason === error.detail) ? null : error.detail;
  return (
    <Modal opened={opened} onClose={handleClose} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS} title={fixedCompany ? `Add a contact to ${fixedCompany.name}` : 'Add a contact'}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack>
          {error ? (
            <Alert color="red" title="The contact was not added" role="alert">
              {summary ?? (otherParams.length === 0 ? 'Correct the fields below.' : null)}
              {otherParams.length > 0 ? (
                <List size="sm" mt="xs">
                  {otherParams.map((param) => (
                    <List.Item key={`${param.name}:${param.reason}`}>{param.reason}</List.Item>
                  ))}
                </List>
              ) : null}
            </Alert>
          ) : null}
          {fixedCompany ? null : (
            <CompanySelect
              mspCustomDomain={mspCustomDomain}
              value={chosenCompany}
              onChange={(chosen) => {
                setChosenCompany(chosen);
                setCompanyError(undefined);
              }}
              error={companyError}
            />
          )}
          <Group grow>
            <TextInput label="First name" required value={values.firstName} onChange={(event) => set('firstName')(event.currentTarget.value)} maxLength={50} error={fieldError('firstName')} styles={READABLE_ERROR_STYLES} />
            <TextInput label="Last name" required value={values.lastName} onChange={(event) => set('lastName')(event.currentTarget.value)} maxLength={50} error={fieldError('lastName')} styles={READABLE_ERROR_STYLES} />
          </Group>
          <TextInput label="Email" type="email" value={values.email} onChange={(event) => set('email')(event.currentTarget.value)} error={fieldError('email')} styles={READABLE_ERROR_STYLES} />
          <TextInput label="Phone" type="tel" value={values.phone} onChange={(event) => set('phone')(event.currentTarget.value)} error={fieldError('phone')} styles={READABLE_ERROR_STYLES} />
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
