import { Suspense } from 'react';
import { Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { TAdminOption, TSessionMspUser } from '@switchboard/contracts';
import { ADMIN_OPTION_LABELS, isAdminOption, visibleAdminOptions } from '../admin-options';
import { useDocumentTitle } from '../../../lib/use-document-title';
// Lazy screens that load again on the dashboard's "Try again" after a failed chunk load (offline).
import { lazyScreen } from '../../dashboard/components/lazy-screen';

const RolesScreen = lazyScreen(() => import('../../roles/components/roles-screen').then((module) => module.RolesScreen));
const BoardsPage = lazyScreen(() => import('../../boards/pages/boards-page').then((module) => module.BoardsPage));
const EmployeesPage = lazyScreen(() => import('../../employees/pages/employees-page').then((module) => module.EmployeesPage));
const TeamsPage = lazyScreen(() => import('../../teams/pages/teams-page').then((module) => module.TeamsPage));
const CompaniesScreen = lazyScreen(() => import('../../companies/components/companies-screen').then((module) => module.CompaniesScreen));
const ContactsScreen = lazyScreen(() => import('../../companies/components/contacts-screen').then((module) => module.ContactsScreen));
const BrandingScreen = lazyScreen(() => import('../../branding/components/branding-screen').then((module) => module.BrandingScreen));
const IntegrationsCatalogueScreen = lazyScreen(() =>
  import('../../integrations-catalogue/components/integrations-catalogue-screen').then((module) => module.IntegrationsCatalogueScreen),
);
const MspIntegrationsPage = lazyScreen(() => import('../../msp-integrations/pages/msp-integrations-page').then((module) => module.MspIntegrationsPage));
const ActivityLogScreen = lazyScreen(() => import('../../activity-log/components/activity-log-screen').then((module) => module.ActivityLogScreen));

type TAdminAreaProps = {
  user: TSessionMspUser;
  currentOption: string | null;
  onChooseOption: (option: TAdminOption) => void;
};

function AdminScreen({ option, user, onChooseOption }: { option: TAdminOption; user: TSessionMspUser; onChooseOption: (option: TAdminOption) => void }) {
  switch (option) {
    case 'roles':
      return <RolesScreen mspCustomDomain={user.mspCustomDomain} />;
    case 'board':
      return <BoardsPage mspCustomDomain={user.mspCustomDomain} />;
    case 'employees':
      return <EmployeesPage mspCustomDomain={user.mspCustomDomain} currentUserId={user.id} />;
    case 'teams':
      return <TeamsPage mspCustomDomain={user.mspCustomDomain} />;
    case 'companies':
      return <CompaniesScreen mspCustomDomain={user.mspCustomDomain} />;
    case 'contacts':
      return <ContactsScreen mspCustomDomain={user.mspCustomDomain} />;
    case 'branding':
      return <BrandingScreen mspCustomDomain={user.mspCustomDomain} mspName={user.mspName} />;
    case 'msp-integrations':
      return <MspIntegrationsPage mspCustomDomain={user.mspCustomDomain} />;
    case 'client-integrations': {
      const canOpenIntegration = visibleAdminOptions(user.permissions).includes('msp-integrations');
      return (
        <IntegrationsCatalogueScreen
          mspCustomDomain={user.mspCustomDomain}
          onOpenIntegration={canOpenIntegration ? () => onChooseOption('msp-integrations') : undefined}
          canManageAiModel={user.userKind === 'technician' && user.permissions.mspIntegrations === true}
        />
      );
    }
    case 'activity-log':
      return <ActivityLogScreen mspCustomDomain={user.mspCustomDomain} />;
    default:
      return null;
  }
}

/** The options this user may open: the admin tab's own screen (titled here, not in AdminArea, whose chosen screen titles itself). */
function AdminOptionList({ user, options, onChooseOption }: { user: TSessionMspUser; options: TAdminOption[]; onChooseOption: (option: TAdminOption) => void }) {
  useDocumentTitle('Admin');
  return (
    <Stack component="section" aria-labelledby="admin-title">
      <Title order={1} size="h2" id="admin-title">
        Admin
      </Title>
      {options.length === 0 ? (
        <Text>Your role ({user.roleName}) does not include any admin option yet. An administrator of your MSP can change your role.</Text>
      ) : (
        <>
          <Text>Choose what to manage.</Text>
          <Group>
            {options.map((option) => (
              <Button key={option} variant="light" onClick={() => onChooseOption(option)}>
                {ADMIN_OPTION_LABELS[option]}
              </Button>
            ))}
          </Group>
        </>
      )}
    </Stack>
  );
}

/** The admin tab: the current option's screen when this user may open it, else the list of options they have. */
export function AdminArea({ user, currentOption, onChooseOption }: TAdminAreaProps) {
  const options = visibleAdminOptions(user.permissions);
  if (isAdminOption(currentOption) && options.includes(currentOption)) {
    return (
      <Suspense fallback={<Loader aria-label="Loading screen" />}>
        <AdminScreen option={currentOption} user={user} onChooseOption={onChooseOption} />
      </Suspense>
    );
  }
  return <AdminOptionList user={user} options={options} onChooseOption={onChooseOption} />;
}
