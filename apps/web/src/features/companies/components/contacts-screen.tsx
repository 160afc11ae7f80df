import { useCallback, useState } from 'react';
import { Alert, Anchor, Breadcrumbs, Button, Group, Loader, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { TContact } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { useCompanies, useContacts } from '../api/companies-queries';
import { AddContactModal } from './add-contact-modal';
import { ContactsTable } from './contacts-table';
import { SEARCH_DEBOUNCE_MS } from './companies-screen';
import { ListPager, TicketsTable } from './tickets-table';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Contacts, ContactAllTickets, ContactTickets. */
type TContactsView = { name: 'Contacts' } | { name: 'ContactAllTickets' } | { name: 'ContactTickets'; contact: TContact };

/**
 * 01 §2 Contacts screen, for users without technicianUserManagement (decisions 12): the contacts
 * they may see (a client user: their company's), Active and PSA toggles, an add-contact form.
 */
export function ContactsScreen({ mspCustomDomain }: { mspCustomDomain: string }) {
  useDocumentTitle('Contacts');
  const [view, setView] = useState<TContactsView>({ name: 'Contacts' });
  const [active, setActive] = useState(true);
  const [psaOnly, setPsaOnly] = useState(false);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [isAdding, setIsAdding] = useState(false);
  const contacts = useContacts(mspCustomDomain, { page, search: debouncedSearch.trim(), active, psaOnly });
  // A client user's own company (the list is scoped to it) is where their add-contact form adds; a
  // technician, who sees every company, chooses one in the form.
  const ownCompanies = useCompanies(mspCustomDomain, { page: 1, search: '', clientType: 'all' });
  const ownCompany = ownCompanies.data?.total === 1 ? ownCompanies.data.items[0] : undefined;
  const canAddContact = (ownCompanies.data?.total ?? 0) > 0;
  const data = contacts.data;

  const backToContacts = useCallback(() => {
    notifications.show({ color: 'red', title: 'Tickets could not be loaded', message: 'Showing the contacts instead.' });
    setView({ name: 'Contacts' });
  }, []);

  return (
    <Stack component="section" aria-labelledby="contacts-title">
      <Title order={1} size="h2" id="contacts-title">
        Contacts
      </Title>
      {view.name !== 'Contacts' ? (
        <Breadcrumbs>
          <Anchor component="button" type="button" onClick={() => setView({ name: 'Contacts' })}>
            Contacts
          </Anchor>
          <Text>{view.name === 'ContactAllTickets' ? 'All tickets' : `Tickets of ${view.contact.firstName} ${view.contact.lastName}`}</Text>
        </Breadcrumbs>
      ) : null}
      {view.name === 'Contacts' ? (
        <>
          <Group justify="space-between" align="flex-end">
            <Group align="flex-end">
              <TextInput
                label="Search contacts"
                value={search}
                onChange={(event) => {
                  setSearch(event.currentTarget.value);
                  setPage(1);
                }}
              />
              {/* A toggle changes the list, so it starts again at page 1 (a later page of a shorter list is empty). */}
              <Switch
                label="Active contacts"
                checked={active}
                onChange={(event) => {
                  setActive(event.currentTarget.checked);
                  setPage(1);
                }}
              />
              <Switch
                label="PSA contacts only"
                checked={psaOnly}
                onChange={(event) => {
                  setPsaOnly(event.currentTarget.checked);
                  setPage(1);
                }}
              />
            </Group>
            <Group>
              <Button variant="light" color="brandSecondary" onClick={() => setView({ name: 'ContactAllTickets' })}>
                All tickets
              </Button>
              {canAddContact ? <Button onClick={() => setIsAdding(true)}>Add contact</Button> : null}
            </Group>
          </Group>
          {contacts.isError ? (
            <Alert color="red" title="Contacts could not be loaded">
              {isApiError(contacts.error) ? contacts.error.detail : 'Try again.'}
            </Alert>
          ) : null}
          {contacts.isPending ? <Loader aria-label="Loading contacts" /> : null}
          {data ? <ContactsTable contacts={data.items} pending={data.pending} showCompany onOpenTickets={(contact) => setView({ name: 'ContactTickets', contact })} /> : null}
          {data ? <ListPager page={page} pageSize={data.pageSize} total={data.total} isTotalCapped={data.isTotalCapped} onChange={setPage} label="contacts" singular="contact" /> : null}
          {canAddContact ? <AddContactModal mspCustomDomain={mspCustomDomain} company={ownCompany} opened={isAdding} onClose={() => setIsAdding(false)} /> : null}
        </>
      ) : null}
      {view.name === 'ContactAllTickets' ? <TicketsTable mspCustomDomain={mspCustomDomain} onLoadFailed={backToContacts} /> : null}
      {view.name === 'ContactTickets' ? (
        <TicketsTable mspCustomDomain={mspCustomDomain} psaCompanyId={view.contact.psaCompanyId} psaContactId={view.contact.psaContactId ?? undefined} onLoadFailed={backToContacts} />
      ) : null}
    </Stack>
  );
}
