import type { TTeam, TTeamMember } from '@switchboard/contracts';
import type { TTeamMemberRow, TTeamRow } from './teams.repository';

function presentTeamMember(row: TTeamMemberRow, team: Pick<TTeamRow, 'psaType'>): TTeamMember {
  return {
    id: row.user.id,
    firstName: row.user.firstName,
    lastName: row.user.lastName,
    email: row.user.email,
    tierLevel: row.tierLevel,
    psaMemberId: row.user.psaMemberId,
    connectWiseTechnicanId: team.psaType === 'CONNECTWISE' ? row.user.psaMemberId : null,
    isActive: row.user.isActive,
  };
}

export function presentTeam(team: TTeamRow, members: TTeamMemberRow[]): TTeam {
  return {
    id: team.id,
    teamName: team.name,
    boardId: team.boardId,
    boardName: team.boardName,
    psaTeamId: team.psaTeamId,
    members: members.filter((member) => member.teamId === team.id).map((member) => presentTeamMember(member, team)),
  };
}
