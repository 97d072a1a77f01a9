/** Module-level HTTP helpers taking the client first; they share the client's one implementation. */
import type { Crm, HelperCallOptions } from "./crm";

export const get = <T = unknown>(crm: Crm, endpoint: string, options?: HelperCallOptions) => crm.get<T>(endpoint, options);
export const post = <T = unknown>(crm: Crm, endpoint: string, payload: unknown, options?: HelperCallOptions) => crm.post<T>(endpoint, payload, options);
export const put = <T = unknown>(crm: Crm, endpoint: string, payload: unknown, options?: HelperCallOptions) => crm.put<T>(endpoint, payload, options);
export const patch = <T = unknown>(crm: Crm, endpoint: string, payload: unknown, options?: HelperCallOptions) => crm.patch<T>(endpoint, payload, options);
const del = <T = unknown>(crm: Crm, endpoint: string, options?: HelperCallOptions) => crm.delete<T>(endpoint, options);
export { del as delete };
export const apiCallWithPayload = <T = unknown>(crm: Crm, method: string, endpoint: string, payload: unknown, options?: HelperCallOptions) =>
  crm.apiCallWithPayload<T>(method, endpoint, payload, options);
