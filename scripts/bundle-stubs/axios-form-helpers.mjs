// Bundle stand-in for axios's form helpers (toFormData, formDataToJSON, toURLEncodedForm, AxiosURLSearchParams)
// and its table of status names (HttpStatusCode). The CRM client sends JSON or a string it encoded itself and
// builds its own query strings (src/client/transport.ts), so axios never reaches them; keeping them out leaves
// room in the client's size budget.
export default function notBundled() {
  throw new Error("axios's form helpers are not bundled: the CRM client sends JSON or a string body, and no params object");
}
export const DEFAULT_FORM_DATA_MAX_DEPTH = 0;
