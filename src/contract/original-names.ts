// Our own paths answer in the contract's neutral field names (company_prof_url, social_b_handle …).
// Clients written for LeadMagic's API read the networks' names those stand for (company_linkedin_url,
// twitter_handle …), so an answer on our paths carries both: every contract field unchanged, and
// beside each neutral name its original name with the same value (docs/leadmagic-v1.md, "Field
// names"). The v1 paths keep their own shapes (contract/v1.ts), which use only the original names.
import { Type, KindGuard, type TSchema } from '@sinclair/typebox';
import { V1_NAMES } from './v1.ts';

/** The schema with each neutral field's original name added beside it (same schema, marked as the original's name). */
export function withOriginalNamesSchema(schema: TSchema): TSchema {
  if (KindGuard.IsUnion(schema)) return { ...schema, anyOf: schema.anyOf.map(withOriginalNamesSchema) };
  if (KindGuard.IsArray(schema)) return { ...schema, items: withOriginalNamesSchema(schema.items) };
  if (!KindGuard.IsObject(schema)) return schema;
  const properties: Record<string, TSchema> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    properties[name] = withOriginalNamesSchema(property);
    const original = V1_NAMES[name];
    if (original && !(original in schema.properties)) {
      const optional = schema.required?.includes(name) ? properties[name] : Type.Optional(properties[name]);
      properties[original] = { ...optional, description: `The same value as ${name}, under the original API's name` };
    }
  }
  const extra = schema.additionalProperties;
  return {
    ...schema,
    properties,
    ...(typeof extra === 'object' ? { additionalProperties: withOriginalNamesSchema(extra) } : {}),
  };
}

/** Whether a schema has a neutral field anywhere (else its answers need no original names). */
export function hasNeutralNames(schema: TSchema): boolean {
  if (KindGuard.IsUnion(schema)) return schema.anyOf.some(hasNeutralNames);
  if (KindGuard.IsArray(schema)) return hasNeutralNames(schema.items);
  if (!KindGuard.IsObject(schema)) return false;
  const extra = schema.additionalProperties;
  return (
    Object.entries(schema.properties).some(([name, property]) => name in V1_NAMES || hasNeutralNames(property)) ||
    (typeof extra === 'object' && hasNeutralNames(extra))
  );
}

/** An answer with each neutral field's original name added beside it (values shared, nothing removed). */
export function withOriginalNames<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withOriginalNames) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    out[name] = withOriginalNames(field);
    const original = V1_NAMES[name];
    if (original && !Object.hasOwn(value, original)) out[original] = out[name];
  }
  return out as T;
}
