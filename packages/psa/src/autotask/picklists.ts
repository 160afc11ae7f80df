import { z } from 'zod';
import { parsePsaPayload } from '../http/parse';

const ZPicklistValue = z.object({
  value: z.union([z.string(), z.number()]),
  label: z.string(),
  isDefaultValue: z.boolean().nullish(),
  sortOrder: z.number().nullish(),
  parentValue: z.union([z.string(), z.number()]).nullish(),
  isActive: z.boolean().nullish(),
  isSystem: z.boolean().nullish(),
});

const ZFieldInformation = z.object({
  fields: z.array(
    z.object({
      name: z.string(),
      isPickList: z.boolean().nullish(),
      isRequired: z.boolean().nullish(),
      picklistValues: z.array(ZPicklistValue).nullish(),
    }),
  ),
});

export interface TPicklistValue {
  value: number;
  label: string;
  isDefault: boolean;
  sortOrder: number;
  parentValue: number | null;
  isActive: boolean;
  isSystem: boolean;
}

export interface TEntityFields {
  picklist(fieldName: string): TPicklistValue[];
  isRequired(fieldName: string): boolean;
}

const toNumber = (value: string | number): number => (typeof value === 'number' ? value : Number(value));

/** Reads `{Entity}/entityInformation/fields`; picklist values arrive as strings and are numbers everywhere else. */
export function parseEntityFields(body: unknown): TEntityFields {
  const information = parsePsaPayload(ZFieldInformation, body, 'field information');
  const byName = new Map(information.fields.map((field) => [field.name.toLowerCase(), field]));
  return {
    picklist(fieldName) {
      const field = byName.get(fieldName.toLowerCase());
      return (field?.picklistValues ?? [])
        .map((value) => ({
          value: toNumber(value.value),
          label: value.label,
          isDefault: value.isDefaultValue === true,
          sortOrder: value.sortOrder ?? 0,
          parentValue: value.parentValue === null || value.parentValue === undefined || value.parentValue === '' ? null : toNumber(value.parentValue),
          isActive: value.isActive !== false,
          isSystem: value.isSystem === true,
        }))
        .filter((value) => Number.isFinite(value.value))
        .sort((a, b) => a.sortOrder - b.sortOrder || a.value - b.value);
    },
    isRequired(fieldName) {
      return byName.get(fieldName.toLowerCase())?.isRequired === true;
    },
  };
}

/** Autotask's system "Complete" status is value 5; tenants may rename it, so the label is a fallback only. */
export const autotaskCompleteStatus = 5;

export function isClosedStatus(value: TPicklistValue): boolean {
  return value.value === autotaskCompleteStatus || /^complete(d)?$/i.test(value.label);
}

export function defaultOf(values: TPicklistValue[]): TPicklistValue | undefined {
  const active = values.filter((value) => value.isActive);
  return active.find((value) => value.isDefault) ?? active[0];
}
