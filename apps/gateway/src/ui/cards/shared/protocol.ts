/** The MCP Apps protocol version the cards speak (ext-apps LATEST_PROTOCOL_VERSION). No DOM: the server reads it too. */
export const MCP_APPS_PROTOCOL_VERSION = '2026-01-26';
