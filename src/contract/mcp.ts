import { Type } from '@sinclair/typebox';

/** A JSON-RPC 2.0 message of the Model Context Protocol (the SDK validates its content). */
export const McpMessage = Type.Object(
  { jsonrpc: Type.Literal('2.0') },
  { title: 'McpMessage', additionalProperties: true, description: 'A JSON-RPC 2.0 response (modelcontextprotocol.io)' },
);
