import { ZAddTeamMembersBody, ZCreateTeamBody, ZRemoveTeamMemberQuery, ZTeamIdParams, ZTeamList, ZTeamResponse, ZTeamsOfMspQuery, ZUpdateTeamBody } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { actorOf } from '../../plugins/access';
import { createTeamsService } from './teams.service';

const MANAGE_TEAMS_SESSION = { principal: 'technician', tenant: 'session', anyPermission: ['technicianUserManagement'] } as const;
const MANAGE_TEAMS_QUERY = { principal: 'technician', tenant: 'query', anyPermission: ['technicianUserManagement', 'mspIntegrations'] } as const;

/** Team screen (02 §2, §4; ): reads; writes. */
export const registerTeamsRoutes: TModule = (app, deps) => {
  const service = createTeamsService(deps);

  app.get(
    '/db/api/teams/getByMspCustomDomain',
    {
      schema: { tags: ['teams'], operationId: 'teamsGetByMspCustomDomain', summary: 'A-012 The MSP’s teams with their members', querystring: ZTeamsOfMspQuery, response: { 200: ZTeamList } },
      config: { access: MANAGE_TEAMS_QUERY },
    },
    async (request) => ({ teams: await service.listForMsp(actorOf(request)) }),
  );

  app.get(
    '/db/api/teams/getById/:teamId',
    {
      schema: { tags: ['teams'], operationId: 'teamsGetById', summary: 'A-064 One team with its members (tenant from the session)', params: ZTeamIdParams, response: { 200: ZTeamResponse } },
      config: { access: MANAGE_TEAMS_SESSION },
    },
    async (request) => ({ team: await service.getById(actorOf(request), request.params.teamId) }),
  );

  app.post(
    '/psa/addTeamInConnectWiseAndAutopilot',
    {
      schema: { tags: ['teams'], operationId: 'addTeamInConnectWiseAndAutopilot', summary: 'A-053 Create a team: a ConnectWise board team and the local team (Autotask: local only)', querystring: ZTeamsOfMspQuery, body: ZCreateTeamBody, response: { 201: ZTeamResponse } },
      config: { access: MANAGE_TEAMS_QUERY },
    },
    async (request, reply) => reply.status(201).send({ team: await service.create(actorOf(request), request.body) }),
  );

  app.put(
    '/psa/api/teams/addMembers/:teamId',
    {
      schema: { tags: ['teams'], operationId: 'teamsAddMembers', summary: 'A-054 Add members (Tier1 unless given; only technicians linked to a PSA member)', params: ZTeamIdParams, body: ZAddTeamMembersBody, response: { 200: ZTeamResponse } },
      config: { access: MANAGE_TEAMS_SESSION },
    },
    async (request) => ({ team: await service.addMembers(actorOf(request), request.params.teamId, request.body) }),
  );

  app.delete(
    '/psa/api/teams/removeMember/:teamId',
    {
      schema: { tags: ['teams'], operationId: 'teamsRemoveMember', summary: 'A-055 Remove the member with this e-mail', params: ZTeamIdParams, querystring: ZRemoveTeamMemberQuery, response: { 200: ZTeamResponse } },
      config: { access: MANAGE_TEAMS_SESSION },
    },
    async (request) => ({ team: await service.removeMember(actorOf(request), request.params.teamId, request.query.emailId) }),
  );

  app.put(
    '/psa/api/teams/update/:teamId',
    {
      schema: { tags: ['teams'], operationId: 'teamsUpdate', summary: 'A-063 Rename a team and/or set its members’ tiers', params: ZTeamIdParams, body: ZUpdateTeamBody, response: { 200: ZTeamResponse } },
      config: { access: MANAGE_TEAMS_SESSION },
    },
    async (request) => ({ team: await service.update(actorOf(request), request.params.teamId, request.body) }),
  );
};
