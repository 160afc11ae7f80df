import { useState } from 'react';
import { Alert, Badge, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DURATION_OPTIONS, SEVERITY_LEVELS } from '@switchboard/contracts';
import type { TSessionMspUser, TSeverityLevel, TTicketDraft } from '@switchboard/contracts';
import { TIER_LABELS } from '../../../lib/tier-labels';
import { READABLE_ERROR_STYLES } from '../../employees/form-styles';
import { useCompanyOptions, useContactOptions } from '../api/assistant-queries';
import { applyProposal, basedOn, bestGuesses, chooseBoard, chooseCategory, chooseSubcategory, findBoard, findCategory, isOnboardingDraft } from '../lib/ticket-draft';
import type { TBoardCatalogue, TTicketForm, TTicketFormErrors } from '../lib/ticket-draft';
import type { useTicketFlow } from '../state/use-ticket-flow';

type TTicketDraftCardProps = {
  mspCustomDomain: string;
  userKind: 'technician' | 'client';
  catalogue: TBoardCatalogue;
  draft: TTicketDraft | null;
  form: TTicketForm;
  errors: TTicketFormErrors;
  isConfirming: boolean;
  isCancelling: boolean;
  /** Another request of the chat flow is under way (talk to a technician, a step answer): Confirm and Cancel wait for it. */
  isBusy?: boolean;
  onChange: (form: TTicketForm) => void;
  onConfirm: () => void;
  onCancel: () => void;
};

const asId = (value: string): number | null => (value === '' ? null : Number(value));

const isSeverity = (value: string): value is TSeverityLevel => (SEVERITY_LEVELS as readonly string[]).includes(value);

function CompanyAndContact({ mspCustomDomain, form, error, onChange }: { mspCustomDomain: string; form: TTicketForm; error: string | undefined; onChange: (form: TTicketForm) => void }) {
  const [search, setSearch] = useState('');
  const [contactSearch, setContactSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [debouncedContact] = useDebouncedValue(contactSearch.trim(), 300);
  const companies = useCompanyOptions(mspCustomDomain, debounced, true);
  const contacts = useContactOptions(mspCustomDomain, form.companyId, debouncedContact);
  const companyItems = companies.data?.items ?? [];
  const contactItems = contacts.data?.items ?? [];
  const contactPlaceholder =
    form.companyId === null ? 'Choose a company first' : contacts.isPending ? 'Loading contacts…' : contacts.isError ? 'Contacts unavailable: type the name below' : contactItems.length === 0 ? 'No active contact found' : 'Choose a contact';
  return (
    <Stack gap="xs">
      <SimpleGrid type="container" cols={{ base: 1, '480px': 2 }}>
        <TextInput label="Find a company" placeholder="Company name" value={search} maxLength={100} onChange={(event) => setSearch(event.currentTarget.value)} />
        <NativeSelect
          label="Company"
          data={[{ value: '', label: companies.isPending ? 'Loading companies…' : 'Choose a company' }, ...companyItems.map((company) => ({ value: company.psaCompanyId, label: company.name }))]}
          value={form.companyId ?? ''}
          onChange={(event) => {
            setContactSearch('');
            onChange({ ...form, companyId: event.currentTarget.value === '' ? null : event.currentTarget.value, contactId: null });
          }}
          error={error}
          styles={READABLE_ERROR_STYLES}
        />
      </SimpleGrid>
      {companies.isError && (
        <Text size="sm" c="red.8">
          The companies could not be loaded. Try again in a moment.
        </Text>
      )}
      {companies.data?.hasMore && (
        <Text size="xs" c="dimmed">
          More companies match: type more of the name to find one that is not listed.
        </Text>
      )}
      <SimpleGrid type="container" cols={{ base: 1, '480px': 2 }}>
        <TextInput label="Find a contact" placeholder="Name or e-mail" value={contactSearch} maxLength={100} disabled={form.companyId === null} onChange={(event) => setContactSearch(event.currentTarget.value)} />
        <NativeSelect
          label="Contact"
          disabled={form.companyId === null}
          data={[
            { value: '', label: contactPlaceholder },
            ...contactItems.map((contact) => ({ value: contact.psaContactId, label: `${contact.firstName} ${contact.lastName}${contact.email ? ` (${contact.email})` : ''}` })),
          ]}
          value={form.contactId ?? ''}
          onChange={(event) => {
            const contact = contactItems.find((candidate) => candidate.psaContactId === event.currentTarget.value);
            onChange(
              contact
                ? { ...form, contactId: contact.psaContactId, name: `${contact.firstName} ${contact.lastName}`.trim(), email: contact.email ?? form.email, phone: contact.phone ?? form.phone }
                : { ...form, contactId: null },
            );
          }}
        />
      </SimpleGrid>
      {contacts.data?.hasMore && (
        <Text size="xs" c="dimmed">
          More contacts match: type more of the name to find one that is not listed.
        </Text>
      )}
    </Stack>
  );
}

/**
 * "My Ticket" (02 §4): the proposed board, category and subcategory with the priority, tier and
 * SLA they bring, every field of the ticket form, and Confirm / Cancel. Board and category
 * changes clear what depends on them (R-263, R-264); a subcategory fills priority, tier and SLA (R-265).
 */
export function TicketDraftCard({ mspCustomDomain, userKind, catalogue, draft, form, errors, isConfirming, isCancelling, isBusy = false, onChange, onConfirm, onCancel }: TTicketDraftCardProps) {
  const board = findBoard(catalogue, form.boardId);
  const category = findCategory(catalogue, form);
  const isAutotask = catalogue.psaType === 'AUTOTASK';
  const isOnboarding = isOnboardingDraft(catalogue, form);
  const proposal = draft?.categorisation;
  const guesses = proposal?.abstained && form.subcategoryId === null ? bestGuesses(catalogue, proposal.alternatives) : [];
  const durationValue = form.durationMinutes !== null ? String(form.durationMinutes) : '';
  const setOnboarding = (field: keyof TTicketForm['onboarding'], value: string) => onChange({ ...form, onboarding: { ...form.onboarding, [field]: value } });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="ticket-draft-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5" id="ticket-draft-title">
            Your ticket
          </Title>
          {proposal && (
            <Group gap={4}>
              {/* The 9 shades: the light variant's default shade is under 4.5:1 on its own tint (axe, WCAG 1.4.3). */}
              <Badge variant="light" color={proposal.abstained ? 'orange.9' : 'teal.9'}>
                {!proposal.abstained ? `Proposed · ${Math.round(proposal.confidence * 100)}% sure` : form.subcategoryId === null ? 'Category not sure yet' : 'Category chosen by you'}
              </Badge>
              <Badge variant="outline" color="gray.7">
                {proposal.engine === 'llm' ? 'AI model' : 'Local engine'}
              </Badge>
            </Group>
          )}
        </Group>
        <TextInput label="Ticket title" maxLength={200} value={form.title} onChange={(event) => onChange({ ...form, title: event.currentTarget.value })} error={errors.title} styles={READABLE_ERROR_STYLES} />
        <Textarea label="Description" autosize minRows={2} maxRows={8} maxLength={8000} value={form.description} onChange={(event) => onChange({ ...form, description: event.currentTarget.value })} error={errors.description} styles={READABLE_ERROR_STYLES} />
        {userKind === 'technician' && <CompanyAndContact mspCustomDomain={mspCustomDomain} form={form} error={errors.company} onChange={onChange} />}
        <SimpleGrid type="container" cols={{ base: 1, '560px': 3 }}>
          <TextInput label="Name" maxLength={200} value={form.name} onChange={(event) => onChange({ ...form, name: event.currentTarget.value })} error={errors.name} styles={READABLE_ERROR_STYLES} />
          <TextInput label="Email" type="email" maxLength={254} value={form.email} onChange={(event) => onChange({ ...form, email: event.currentTarget.value })} error={errors.email} styles={READABLE_ERROR_STYLES} />
          <TextInput label="Phone" type="tel" maxLength={40} value={form.phone} onChange={(event) => onChange({ ...form, phone: event.currentTarget.value })} error={errors.phone} styles={READABLE_ERROR_STYLES} />
        </SimpleGrid>
        {guesses.length > 0 && (
          // Not sure enough to fill the form: the likeliest categories as one-click choices, so nobody has to know the MSP's board.
          <Stack gap={4} role="group" aria-labelledby="ticket-draft-guesses">
            <Text size="sm" id="ticket-draft-guesses">
              Jarvis is not sure yet. Is it one of these?
            </Text>
            <Group gap="xs">
              {guesses.map((guess) => (
                <Button key={`${guess.boardId}-${guess.categoryId}-${guess.subcategoryId}`} size="compact-sm" variant="default" onClick={() => onChange(applyProposal(catalogue, form, guess))}>
                  {guess.label}
                </Button>
              ))}
            </Group>
          </Stack>
        )}
        <SimpleGrid type="container" cols={{ base: 1, '560px': 3 }}>
          <NativeSelect
            label={isAutotask ? 'Queue' : 'Board'}
            data={[{ value: '', label: isAutotask ? 'Choose a queue' : 'Choose a board' }, ...catalogue.boards.map((candidate) => ({ value: String(candidate.id), label: candidate.name }))]}
            value={form.boardId === null ? '' : String(form.boardId)}
            onChange={(event) => onChange(chooseBoard(catalogue, form, asId(event.currentTarget.value)))}
            error={errors.board}
            styles={READABLE_ERROR_STYLES}
          />
          <NativeSelect
            label="Category"
            disabled={!board}
            data={[{ value: '', label: 'Choose a category' }, ...(board?.categories ?? []).map((candidate) => ({ value: String(candidate.id), label: candidate.name }))]}
            value={form.categoryId === null ? '' : String(form.categoryId)}
            onChange={(event) => onChange(chooseCategory(form, asId(event.currentTarget.value)))}
            error={errors.category}
            styles={READABLE_ERROR_STYLES}
          />
          <NativeSelect
            label="Subcategory"
            disabled={!category}
            data={[{ value: '', label: 'Choose a subcategory' }, ...(category?.subcategories ?? []).map((candidate) => ({ value: String(candidate.id), label: candidate.name }))]}
            value={form.subcategoryId === null ? '' : String(form.subcategoryId)}
            onChange={(event) => onChange(chooseSubcategory(catalogue, form, asId(event.currentTarget.value)))}
            error={errors.subcategory}
            styles={READABLE_ERROR_STYLES}
          />
        </SimpleGrid>
        <Group gap="lg" wrap="wrap" aria-label="Filled from the board configuration" role="group">
          <Text size="sm">
            <Text span c="dimmed">
              Priority:{' '}
            </Text>
            {form.priorityLabel ?? '—'}
          </Text>
          <Text size="sm">
            <Text span c="dimmed">
              Tier:{' '}
            </Text>
            {form.tier ? TIER_LABELS[form.tier] : '—'}
          </Text>
          <Text size="sm">
            <Text span c="dimmed">
              SLA:{' '}
            </Text>
            {form.slaHours === null ? '—' : `${form.slaHours} hour${form.slaHours === 1 ? '' : 's'}`}
          </Text>
          {isAutotask && board?.ticketType && (
            <Text size="sm">
              <Text span c="dimmed">
                Ticket type:{' '}
              </Text>
              {board.ticketType.label}
            </Text>
          )}
        </Group>
        <SimpleGrid type="container" cols={{ base: 1, '560px': 3 }}>
          <NativeSelect label="Impact" data={[...SEVERITY_LEVELS]} value={form.impact} onChange={(event) => isSeverity(event.currentTarget.value) && onChange({ ...form, impact: event.currentTarget.value })} />
          <NativeSelect label="Severity" data={[...SEVERITY_LEVELS]} value={form.severity} onChange={(event) => isSeverity(event.currentTarget.value) && onChange({ ...form, severity: event.currentTarget.value })} />
          {/* A client's ticket takes the subcategory's SLA (R-265); their form has no duration (R-271). */}
          {userKind === 'technician' && (
            <NativeSelect
              label="Duration"
              data={[{ value: '', label: form.slaHours === null ? 'From the SLA' : `From the SLA (${form.slaHours} h)` }, ...DURATION_OPTIONS.map((option) => ({ value: String(option.minutes), label: option.label }))]}
              value={durationValue}
              onChange={(event) => onChange({ ...form, durationMinutes: asId(event.currentTarget.value) })}
            />
          )}
        </SimpleGrid>
        {isOnboarding && (
          <Stack gap="xs" role="group" aria-label="New employee">
            <Text size="sm" fw={600}>
              New employee
            </Text>
            <SimpleGrid type="container" cols={{ base: 1, '560px': 3 }}>
              <TextInput label="New first name" maxLength={100} value={form.onboarding.firstName} onChange={(event) => setOnboarding('firstName', event.currentTarget.value)} />
              <TextInput label="New last name" maxLength={100} value={form.onboarding.lastName} onChange={(event) => setOnboarding('lastName', event.currentTarget.value)} />
              <TextInput label="New email" maxLength={254} value={form.onboarding.email} onChange={(event) => setOnboarding('email', event.currentTarget.value)} />
              <TextInput label="Owner email" maxLength={254} value={form.onboarding.ownerEmail} onChange={(event) => setOnboarding('ownerEmail', event.currentTarget.value)} />
              <TextInput label="New phone" maxLength={40} value={form.onboarding.phone} onChange={(event) => setOnboarding('phone', event.currentTarget.value)} />
              <TextInput label="Licence" maxLength={40} value={form.onboarding.licence} onChange={(event) => setOnboarding('licence', event.currentTarget.value)} />
            </SimpleGrid>
          </Stack>
        )}
        {proposal && proposal.sources.length > 0 && (
          <Text size="xs" c="dimmed">
            Based on: {basedOn(proposal.sources).join(', ')}
          </Text>
        )}
        {Object.keys(errors).length > 0 && (
          <Alert color="red" role="alert" p="xs">
            Some fields need your attention before the ticket can be created.
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} loading={isCancelling} disabled={isBusy || isConfirming}>
            Cancel
          </Button>
          <Button onClick={onConfirm} loading={isConfirming} disabled={isBusy || isCancelling}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The chat flow's ticket draft as the card (the Tickets tab and a client's "My Ticket" show it), or nothing while there is none. */
export function FlowDraftCard({ user, flow }: { user: TSessionMspUser; flow: ReturnType<typeof useTicketFlow> }) {
  if (!flow.draft || !flow.form) return null;
  return (
    <TicketDraftCard
      mspCustomDomain={user.mspCustomDomain}
      userKind={user.userKind}
      catalogue={flow.catalogue}
      draft={flow.draft}
      form={flow.form}
      errors={flow.formErrors}
      isConfirming={flow.isConfirming}
      isCancelling={flow.isCancelling}
      isBusy={flow.isBusy}
      onChange={flow.setForm}
      onConfirm={() => flow.confirm()}
      onCancel={() => flow.cancel()}
    />
  );
}
