import type { HelperConnection } from "../client";

/** The values of a connection that must never be shown or logged. */
export function secretsOf(connection: HelperConnection): (string | undefined)[] {
  return [connection.password, connection.security_token, connection.client_secret, connection.access_token, connection.refresh_token, connection.private_key];
}
