// The entry of dist/axios.js: the parts of axios the client uses (src/client/transport.ts, node-adapter.ts).
export { default, AxiosError, AxiosHeaders, CanceledError, isAxiosError } from "axios";
