// The package ships plain JavaScript; these are the parts the compatibility test calls.
declare module '@apigrate/autotask-restapi' {
  interface TAutotaskEntity {
    query(search: unknown): Promise<unknown>;
    count(search: unknown): Promise<unknown>;
    get(id: number): Promise<unknown>;
    create(payload: unknown): Promise<unknown>;
    update(payload: unknown): Promise<unknown>;
    fieldInfo(): Promise<unknown>;
  }

  interface TAutotaskChildEntity {
    query(search: unknown): Promise<unknown>;
    get(id: number): Promise<unknown>;
    create(parentId: number, payload: unknown): Promise<unknown>;
  }

  export class AutotaskRestApi {
    constructor(user: string, secret: string, code: string, options?: { base_url?: string; version?: string });
    zoneInfo: { url: string } | null;
    Tickets: TAutotaskEntity;
    Companies: TAutotaskEntity;
    Contacts: TAutotaskEntity;
    Resources: TAutotaskEntity;
    TicketNotes: TAutotaskChildEntity;
    CompanyContacts: TAutotaskChildEntity;
  }

  export class AutotaskApiError extends Error {
    status: number;
    details: unknown;
  }
}
