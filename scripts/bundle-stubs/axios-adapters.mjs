// Bundle stand-in for axios's built-in adapters (http, xhr, fetch): the client always passes its own
// (src/client/node-adapter.ts), so they are never chosen; this keeps their code out of the bundles.
const notBundled = () => {
  throw new Error("axios's built-in adapters are not bundled: pass the client's own adapter");
};
export default notBundled;
export const getFetch = () => notBundled;
