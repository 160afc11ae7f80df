import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { EMAIL_MAIL_MESSAGES, type TEmailConnectorMail } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import { MODAL_CLOSE_BUTTON_PROPS, READABLE_ERROR_STYLES } from '../../employees/form-styles';
// Decision 028: the ticket form's own company and contact lookups, the same the chat's ticket form uses.
import { useCompanyOptions, useContactOptions } from '../../assistant/api/assistant-queries';
import { useFileEmailMail } from '../api/email-connector-queries';

const MESSAGES = EMAIL_MAIL_MESSAGES.fileUnder;

type TOption = { value: string; label: string };
type TFieldErrors = { companyId?: string; contactId?: string };

/** The server's field problems by field (it names the field in `invalidParams`). */
function fieldErrorsOf(error: unknown): TFieldErrors {
  if (!isApiError(error)) return {};
  const errors: TFieldErrors = {};
  for (const param of error.invalidParams) if (param.name === 'companyId' || param.name === 'contactId') errors[param.name] = param.reason;
  return errors;
}

/** The chosen option stays listed while a new search shows other ones, so the field keeps showing it. */
const withChosen = (options: TOption[], chosen: TOption | null): TOption[] => (chosen && !options.some((option) => option.value === chosen.value) ? [chosen, ...options] : options);

/**
 * "Make a ticket…" (decision 036): files one skipped mail under a client company of the admin's choosing, and optionally one
 * of its contacts, at the next reading of the mailbox. Nothing else changes: not the default company, not the PSA's contacts.
 */
export function FileUnderModal({ mspCustomDomain, mail, onClose, onSaved }: { mspCustomDomain: string; mail: TEmailConnectorMail | null; onClose: () => void; onSaved: (mail: TEmailConnectorMail, companyName: string) => void }) {
  return (
    <Modal opened={mail !== null} onClose={onClose} title={MESSAGES.title} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS}>
      {/* A new mail starts the form afresh. */}
      {mail ? <FileUnderForm key={mail.id} mspCustomDomain={mspCustomDomain} mail={mail} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

function FileUnderForm({ mspCustomDomain, mail, onClose, onSaved }: { mspCustomDomain: string; mail: TEmailConnectorMail; onClose: () => void; onSaved: (mail: TEmailConnectorMail, companyName: string) => void }) {
  const [companySearch, setCompanySearch] = useState('');
  const [contactSearch, setContactSearch] = useState('');
  const [company, setCompany] = useState<TOption | null>(null);
  const [contact, setContact] = useState<TOption | null>(null);
  const [missingCompany, setMissingCompany] = useState(false);
  // Once a company is chosen the field shows its name as the search: look up with what was typed before, not the name.
  const [debouncedCompanySearch] = useDebouncedValue(company && companySearch === company.label ? '' : companySearch.trim(), 300);
  const [debouncedContactSearch] = useDebouncedValue(contact && contactSearch === contact.label ? '' : contactSearch.trim(), 300);
  const companies = useCompanyOptions(mspCustomDomain, debouncedCompanySearch, true);
  const contacts = useContactOptions(mspCustomDomain, company?.value ?? null, debouncedContactSearch);
  const fileUnder = useFileEmailMail(mspCustomDomain);
  const serverErrors = fieldErrorsOf(fileUnder.error);
  const hasFieldError = serverErrors.companyId !== undefined || serverErrors.contactId !== undefined;

  const companyOptions = withChosen((companies.data?.items ?? []).map((item) => ({ value: item.psaCompanyId, label: item.name })), company);
  const contactOptions = withChosen(
    (contacts.data?.items ?? []).map((item) => ({ value: item.psaContactId, label: `${item.firstName} ${item.lastName}`.trim() + (item.email ? ` (${item.email})` : '') })),
    contact,
  );

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!company) {
      setMissingCompany(true);
      return;
    }
    fileUnder.mutate({ id: mail.id, body: { companyId: company.value, contactId: contact?.value ?? null } }, { onSuccess: (answered) => onSaved(answered, company.label) });
  }

  const subject = mail.subject.trim() === '' ? EMAIL_MAIL_MESSAGES.noSubject : mail.subject;
  return (
    <form onSubmit={handleSubmit} aria-label={MESSAGES.title} noValidate>
      <Stack gap="sm">
        <Text size="sm">{MESSAGES.intro}</Text>
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {subject}
          <Text span size="sm" fw={400} c="dimmed">
            {` · ${mail.from}`}
          </Text>
        </Text>
        <Select
          label={MESSAGES.companyLabel}
          placeholder={MESSAGES.companyPlaceholder}
          required
          searchable
          // The server searches (the ticket form's lookup): show what it answered as it is.
          filter={({ options }) => options}
          data={companyOptions}
          value={company?.value ?? null}
          searchValue={companySearch}
          onSearchChange={setCompanySearch}
          nothingFoundMessage={companies.isFetching ? MESSAGES.companiesLoading : MESSAGES.noCompanyFound}
          onChange={(value) => {
            const chosen = companyOptions.find((option) => option.value === value) ?? null;
            setCompany(chosen);
            setContact(null);
            setContactSearch('');
            setMissingCompany(false);
            fileUnder.reset();
          }}
          error={(missingCompany ? MESSAGES.companyRequired : undefined) ?? serverErrors.companyId}
          styles={READABLE_ERROR_STYLES}
          comboboxProps={{ withinPortal: true }}
        />
        {companies.isError ? (
          <Text size="sm" c="red.8">
            {MESSAGES.companiesFailed}
          </Text>
        ) : null}
        {companies.data?.hasMore ? (
          <Text size="xs" c="dimmed">
            {MESSAGES.moreCompanies}
          </Text>
        ) : null}
        <Select
          label={MESSAGES.contactLabel}
          placeholder={company === null ? MESSAGES.contactNeedsCompany : MESSAGES.contactPlaceholder}
          searchable
          clearable
          disabled={company === null}
          filter={({ options }) => options}
          data={contactOptions}
          value={contact?.value ?? null}
          searchValue={contactSearch}
          onSearchChange={setContactSearch}
          nothingFoundMessage={contacts.isFetching ? MESSAGES.contactsLoading : MESSAGES.noContactFound}
          onChange={(value) => {
            setContact(contactOptions.find((option) => option.value === value) ?? null);
            fileUnder.reset();
          }}
          error={serverErrors.contactId}
          styles={READABLE_ERROR_STYLES}
          comboboxProps={{ withinPortal: true }}
        />
        {contacts.data?.hasMore ? (
          <Text size="xs" c="dimmed">
            {MESSAGES.moreContacts}
          </Text>
        ) : null}
        {fileUnder.isError && !hasFieldError ? (
          <Alert color="red" role="alert">
            {errorDetail(fileUnder.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {MESSAGES.cancel}
          </Button>
          <Button type="submit" loading={fileUnder.isPending}>
            {MESSAGES.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
