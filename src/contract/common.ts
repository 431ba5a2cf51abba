import { Type, type IntegerOptions, type StringOptions, type TSchema } from '@sinclair/typebox';

/**
 * Request strings refuse C0 control characters other than tab, line feed and carriage return, and
 * DEL: no real name, address or search contains them, and PostgreSQL text cannot hold NUL at all.
 */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';

/** A request string: bounded length, no control characters. Every request string field uses it. */
export const Text = (options: StringOptions & { maxLength: number }) => Type.String({ pattern: NO_CONTROL_CHARACTERS, ...options });

/** The largest value a 32-bit integer column holds (PostgreSQL integer). */
export const INT32_MAX = 2_147_483_647;

/** A request integer: bounded on both sides so that every value fits the column it is compared with. */
export const BoundedInteger = (options: IntegerOptions & { minimum: number }) => Type.Integer({ maximum: INT32_MAX, ...options });

/** A field that carries `null` when there is no data (docs/contract.md, Values). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorResponse = Type.Object(
  {
    error: Type.String({
      description:
        'Machine-readable error code: invalid_request, missing_api_key, invalid_api_key, insufficient_credits, not_found, idempotency_in_flight, payload_too_large, unsupported_media_type, idempotency_key_reused, rate_limited, internal_error, unavailable, or on /mcp not_acceptable and method_not_allowed',
    }),
    message: Type.String({ description: 'Human-readable explanation' }),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ description: 'The offending field, as a JSON path such as /per_page' }),
          message: Type.String(),
        }),
      ),
    ),
  },
  { title: 'Error' },
);

/** Credits as a JSON number: millicredits / 1000, exact for our integer units. */
export const CreditsNumber = Type.Number({ description: 'Credits charged for this call', minimum: 0 });

export const IdName = Type.Object({ id: Type.Integer(), name: Type.String() });
