import type { TPicklistValue } from './picklists';

/**
 * The ticket fields whose changes Switchboard must hear about (status, priority, title, queue,
 * assignment, classification, contact and company), each with the labels Autotask may give it in
 * the `fieldID` picklist of TicketWebhookFields: the API field name or the screen label.
 */
export const subscribedTicketFields: readonly (readonly string[])[] = [
  ['status'],
  ['priority'],
  ['title'],
  ['queueID', 'queue'],
  ['assignedResourceID', 'assignedResource', 'primaryResource'],
  ['assignedResourceRoleID', 'assignedResourceRole', 'primaryResourceRole'],
  ['issueType'],
  ['subIssueType'],
  ['contactID', 'contact'],
  ['companyID', 'company'],
];

const normalise = (label: string): string => label.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The webhook field ids (values of the `fieldID` picklist) of the subscribed ticket fields this tenant offers. */
export function subscribedTicketFieldIds(fieldIdPicklist: readonly TPicklistValue[]): number[] {
  const idByLabel = new Map(fieldIdPicklist.filter((value) => value.isActive).map((value) => [normalise(value.label), value.value]));
  const ids = subscribedTicketFields.flatMap((labels) => {
    const id = labels.map((label) => idByLabel.get(normalise(label))).find((candidate) => candidate !== undefined);
    return id === undefined ? [] : [id];
  });
  return [...new Set(ids)];
}
