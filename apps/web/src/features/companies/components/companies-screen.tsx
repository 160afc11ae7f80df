import { useCallback, useState } from 'react';
import { Alert, Anchor, Breadcrumbs, Button, Group, Loader, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { TCompany, TContact } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { useCompanies, useCompanyContacts } from '../api/companies-queries';
import { AddContactModal } from './add-contact-modal';
import { ContactsTable } from './contacts-table';
import { ListPager, TicketsTable } from './tickets-table';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** the four views, Companies first. */
type TCompaniesView =
  | { name: 'Companies' }
  | { name: 'CompanyEmployees'; company: TCompany }
  | { name: 'CompanyAllTickets'; company: TCompany }
  | { name: 'CompanyEmployeeTickets'; company: TCompany; contact: TContact };

/** the search box waits this long after the last key. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The company's name as the button that opens its employees (shade 7 of the brand colour: the brand colour itself may sit just at 4.5:1 on white, and the striped rows are grey). */
function CompanyLink({ company, onOpen }: { company: TCompany; onOpen: (company: TCompany) => void }) {
  return (
    <Anchor component="button" type="button" c="brand.7" ta="left" onClick={() => onOpen(company)}>
      {company.name}
    </Anchor>
  );
}

/**
 * One page of companies: a table, or on a phone one card per company. The four-column table was
 * scrolled sideways at 390 px, the phone number and city off-screen behind a scroll bar nobody saw.
 */
function CompaniesTable({ companies, onOpen }: { companies: TCompany[]; onOpen: (company: TCompany) => void }) {
  const isNarrow = useMediaQuery('(max-width: 48em)') === true;
  if (isNarrow) {
    return (
      <Stack gap="xs" component="ul" aria-label="Companies" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {companies.map((company) => (
          <Paper key={company.id} component="li" withBorder p="sm">
            <Text fw={600}>
              <CompanyLink company={company} onOpen={onOpen} />
            </Text>
            {company.psaClientType.length > 0 ? <Text size="sm">{company.psaClientType.join(', ')}</Text> : null}
            {company.phone || company.city ? (
              <Text size="sm" c="dimmed">
                {[company.phone, company.city].filter((part) => part).join(' · ')}
              </Text>
            ) : null}
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table striped highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Company</Table.Th>
          <Table.Th>Client type</Table.Th>
          <Table.Th>Phone</Table.Th>
          <Table.Th>City</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {companies.map((company) => (
          <Table.Tr key={company.id}>
            <Table.Td>
              <CompanyLink company={company} onOpen={onOpen} />
            </Table.Td>
            <Table.Td>{company.psaClientType.join(', ')}</Table.Td>
            <Table.Td>{company.phone ?? ''}</Table.Td>
            <Table.Td>{company.city ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function CompaniesList({ mspCustomDomain, onOpen }: { mspCustomDomain: string; onOpen: (company: TCompany) => void }) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [clientType, setClientType] = useState('all');
  const [page, setPage] = useState(1);
  const companies = useCompanies(mspCustomDomain, { page, search: debouncedSearch.trim(), clientType });
  const data = companies.data;

  return (
    <Stack>
      <Group align="flex-end">
        <TextInput
          label="Search companies"
          placeholder="Name or identifier"
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', sm: 320 }}
        />
        <Select
          label="Client type"
          data={[{ value: 'all', label: 'All' }, ...(data?.clientTypes ?? []).map((type) => ({ value: type, label: type }))]}
          value={clientType}
          onChange={(value) => {
            setClientType(value ?? 'all');
            setPage(1);
          }}
          allowDeselect={false}
          w={{ base: '100%', sm: 220 }}
        />
      </Group>
      {companies.isError ? (
        <Alert color="red" title="Companies could not be loaded">
          {isApiError(companies.error) ? companies.error.detail : 'Try again.'}
        </Alert>
      ) : null}
      {companies.isPending ? <Loader aria-label="Loading companies" /> : null}
      {data && data.items.length === 0 ? <Text c="dimmed">{data.total === 0 && debouncedSearch === '' && clientType === 'all' ? 'No companies are synchronized from your PSA yet.' : 'No companies match.'}</Text> : null}
      {data && data.items.length > 0 ? <CompaniesTable companies={data.items} onOpen={onOpen} /> : null}
      {data ? <ListPager page={page} pageSize={data.pageSize} total={data.total} onChange={setPage} label="companies" singular="company" /> : null}
    </Stack>
  );
}

function CompanyEmployees({ mspCustomDomain, company, onAllTickets, onContactTickets }: { mspCustomDomain: string; company: TCompany; onAllTickets: () => void; onContactTickets: (contact: TContact) => void }) {
  const [active, setActive] = useState(true);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [isAdding, setIsAdding] = useState(false);
  const contacts = useCompanyContacts(mspCustomDomain, { psaCompanyId: company.psaCompanyId, page, search: debouncedSearch.trim(), active });
  const data = contacts.data;

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <SegmentedControl
            aria-label="Employees shown"
            value={active ? 'active' : 'other'}
            onChange={(value) => {
              setActive(value === 'active');
              setPage(1);
            }}
            data={[
              { value: 'active', label: 'Active' },
              { value: 'other', label: 'Other' },
            ]}
          />
          <TextInput
            label="Search employees"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
          />
        </Group>
        <Group>
          <Button variant="light" color="brandSecondary" onClick={onAllTickets}>
            All tickets
          </Button>
          <Button onClick={() => setIsAdding(true)}>Add contact</Button>
        </Group>
      </Group>
      {contacts.isError ? (
        <Alert color="red" title="Employees could not be loaded">
          {isApiError(contacts.error) ? contacts.error.detail : 'Try again.'}
        </Alert>
      ) : null}
      {contacts.isPending ? <Loader aria-label="Loading employees" /> : null}
      {data ? <ContactsTable contacts={data.items} pending={data.pending} onOpenTickets={onContactTickets} /> : null}
      {data ? <ListPager page={page} pageSize={data.pageSize} total={data.total} isTotalCapped={data.isTotalCapped} onChange={setPage} label="employees" singular="employee" /> : null}
      <AddContactModal mspCustomDomain={mspCustomDomain} company={company} opened={isAdding} onClose={() => setIsAdding(false)} />
    </Stack>
  );
}

/** 01 §2 Companies screen: Companies → CompanyEmployees → CompanyAllTickets or CompanyEmployeeTickets. */
export function CompaniesScreen({ mspCustomDomain }: { mspCustomDomain: string }) {
  useDocumentTitle('Companies');
  const [view, setView] = useState<TCompaniesView>({ name: 'Companies' });
  const company = view.name === 'Companies' ? null : view.company;

  const backToEmployees = useCallback(() => {
    if (view.name === 'CompanyAllTickets' || view.name === 'CompanyEmployeeTickets') {
      notifications.show({ color: 'red', title: 'Tickets could not be loaded', message: 'Showing the employees instead.' });
      setView({ name: 'CompanyEmployees', company: view.company });
    }
  }, [view]);

  return (
    <Stack component="section" aria-labelledby="companies-title">
      <Title order={1} size="h2" id="companies-title">
        Companies
      </Title>
      {company ? (
        <Breadcrumbs>
          <Anchor component="button" type="button" onClick={() => setView({ name: 'Companies' })}>
            Companies
          </Anchor>
          {view.name === 'CompanyEmployees' ? (
            <Text>{company.name}</Text>
          ) : (
            <Anchor component="button" type="button" onClick={() => setView({ name: 'CompanyEmployees', company })}>
              {company.name}
            </Anchor>
          )}
          {view.name === 'CompanyAllTickets' ? <Text>All tickets</Text> : null}
          {view.name === 'CompanyEmployeeTickets' ? <Text>Tickets of {`${view.contact.firstName} ${view.contact.lastName}`}</Text> : null}
        </Breadcrumbs>
      ) : null}
      {view.name === 'Companies' ? <CompaniesList mspCustomDomain={mspCustomDomain} onOpen={(chosen) => setView({ name: 'CompanyEmployees', company: chosen })} /> : null}
      {view.name === 'CompanyEmployees' ? (
        <CompanyEmployees
          mspCustomDomain={mspCustomDomain}
          company={view.company}
          onAllTickets={() => setView({ name: 'CompanyAllTickets', company: view.company })}
          onContactTickets={(contact) => setView({ name: 'CompanyEmployeeTickets', company: view.company, contact })}
        />
      ) : null}
      {view.name === 'CompanyAllTickets' ? <TicketsTable mspCustomDomain={mspCustomDomain} psaCompanyId={view.company.psaCompanyId} onLoadFailed={backToEmployees} /> : null}
      {view.name === 'CompanyEmployeeTickets' ? (
        <TicketsTable mspCustomDomain={mspCustomDomain} psaCompanyId={view.company.psaCompanyId} psaContactId={view.contact.psaContactId ?? undefined} onLoadFailed={backToEmployees} />
      ) : null}
    </Stack>
  );
}
