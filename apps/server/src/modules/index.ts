import type { TModule } from '../app-deps';
import { registerHealthRoutes } from './health/health.routes';
import { registerDevOutboxRoutes } from './dev-outbox/dev-outbox.routes';
import { registerMspRoutes } from './msp/msp.routes';
import { registerRolesRoutes } from './roles/roles.routes';
import { registerAuthRoutes } from './auth/auth.routes';
import { registerActivationRoutes } from './activation/activation.routes';
import { registerProfileRoutes } from './profile/profile.routes';
import { registerAccountRoutes } from './accounts/accounts.routes';
import { registerIntegrationsRoutes } from './integrations/integrations.routes';
import { registerPsaReadsRoutes } from './psa-reads/psa-reads.routes';
import { registerBoardsRoutes } from './boards/boards.routes';
import { registerEmployeesRoutes } from './employees/employees.routes';
import { registerInvitationsRoutes } from './invitations/invitations.routes';
import { registerTeamsRoutes } from './teams/teams.routes';
import { registerClientUsersRoutes } from './client-users/client-users.routes';
import { registerKnowledgeRoutes } from './knowledge/knowledge.routes';
import { registerAgentRoutes } from './assistant/agents.routes';
import { registerTicketsByChatRoutes } from './assistant/tickets-by-chat.routes';
import { registerDiagnosticQuestionsRoutes } from './assistant/diagnostic-questions.routes';
import { registerChatRoutes } from './assistant/chat.routes';
import { registerSupportTicketRoutes } from './assistant/support-tickets.routes';
import { registerPsaOutboxRoutes } from './psa-outbox/psa-outbox.routes';
import { registerTicketSyncRoutes } from './ticket-sync/ticket-sync.routes';
import { registerImportsRoutes } from './imports/imports.routes';
import { registerQueueRoutes } from './queue/queue.routes';
import { registerCompaniesRoutes } from './companies/companies.routes';
import { registerActivityLogRoutes } from './activity-log/activity-log.routes';
import { registerLlmProviderRoutes } from './llm-provider/llm-provider.routes';
import { registerPsaEventsRoutes } from './psa-events/psa-events.routes';
import { registerWizardRoutes } from './wizard/wizard.routes';
import { registerEmailConnectorRoutes } from './email-connector/email-connector.routes';
import { registerAuthUpkeep } from './sessions/auth-upkeep';

/** Every domain module, registered in this order by buildApp. Add one line per new module. */
export const MODULES: TModule[] = [
  registerHealthRoutes,
  registerDevOutboxRoutes,
  registerMspRoutes,
  registerRolesRoutes,
  registerAuthRoutes,
  registerActivationRoutes,
  registerProfileRoutes,
  registerAccountRoutes,
  registerIntegrationsRoutes,
  registerPsaReadsRoutes,
  registerBoardsRoutes,
  registerEmployeesRoutes,
  registerInvitationsRoutes,
  registerTeamsRoutes,
  registerClientUsersRoutes,
  registerKnowledgeRoutes,
  registerAgentRoutes,
  registerTicketsByChatRoutes,
  registerDiagnosticQuestionsRoutes,
  registerChatRoutes,
  registerSupportTicketRoutes,
  registerPsaOutboxRoutes,
  registerTicketSyncRoutes,
  registerImportsRoutes,
  registerQueueRoutes,
  registerCompaniesRoutes,
  registerActivityLogRoutes,
  registerLlmProviderRoutes,
  registerPsaEventsRoutes,
  registerWizardRoutes,
  registerEmailConnectorRoutes,
  registerAuthUpkeep,
];
