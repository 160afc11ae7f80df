import { useEffect, useState } from 'react';
import { Alert, Button, Group, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { MESSAGES, type TPsaType } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { useDefaultCompanyOptions, useSetDefaultCompany } from '../api/boards-queries';
import { BoardCard } from './board-card';
import { useBoardOutcome } from './use-board-outcome';

type TCompany = { id: number; name: string };

/** The default company with its three messages (01 §8, R-179–R-181); a failure restores the previous choice. */
export function DefaultCompanyCard({ msp, psaType, current, onUnsavedChange }: { msp: string; psaType: TPsaType; current: TCompany | null; onUnsavedChange?: (isUnsaved: boolean) => void }) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  // undefined: follow the saved company; a value (or null) is the admin's unsaved choice.
  const [choice, setChoice] = useState<TCompany | null | undefined>(undefined);
  const chosen = choice === undefined ? current : choice;
  const isUnsaved = (chosen?.id ?? null) !== (current?.id ?? null);
  // The screen asks before it is left while a chosen company is not set yet.
  useEffect(() => onUnsavedChange?.(isUnsaved), [isUnsaved, onUnsavedChange]);
  const [outcome, setOutcome] = useBoardOutcome();
  const options = useDefaultCompanyOptions(msp, debouncedSearch);
  const setDefaultCompany = useSetDefaultCompany(msp);

  const companies = options.data?.companies ?? [];
  const data = [...(chosen && !companies.some((company) => company.id === chosen.id) ? [chosen] : []), ...companies].map((company) => ({ value: String(company.id), label: company.name }));

  async function handleSave() {
    try {
      await setDefaultCompany.mutateAsync({ psaType, company: chosen });
      setChoice(undefined);
      setOutcome({ color: 'green', message: MESSAGES.boards.defaultCompanyUpdated });
    } catch (error) {
      // 01 §8: the previous choice is restored.
      setChoice(undefined);
      setOutcome({ color: 'red', message: isApiError(error) && error.code === 'network' ? MESSAGES.boards.defaultCompanyNetworkError : MESSAGES.boards.defaultCompanyFailed });
    }
  }

  return (
    <BoardCard id="default-company-title" title="Default company" intro="Tickets from people the PSA does not know are filed under this company.">
      <Group align="flex-end" gap="xs">
        <Select
          label="Company"
          placeholder="Search your PSA companies"
          searchable
          clearable
          data={data}
          value={chosen === null ? null : String(chosen.id)}
          searchValue={search}
          onSearchChange={setSearch}
          nothingFoundMessage={options.isFetching ? 'Searching…' : 'No synchronized company matches'}
          onChange={(value) => {
            const company = [...companies, ...(chosen ? [chosen] : [])].find((candidate) => String(candidate.id) === value);
            setChoice(company ?? null);
          }}
          w={{ base: '100%', sm: 320 }}
        />
        <Button onClick={() => void handleSave()} loading={setDefaultCompany.isPending} disabled={!isUnsaved}>
          Set default company
        </Button>
      </Group>
      {outcome && (
        <Alert mt="xs" color={outcome.color} role={outcome.color === 'red' ? 'alert' : 'status'} variant="light">
          {outcome.message}
        </Alert>
      )}
    </BoardCard>
  );
}
