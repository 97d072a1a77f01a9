// Bundle stand-in for `https-proxy-agent`: only axios's own Node adapter uses it, and the CRM client
// sends every request through its lean adapter (src/client/node-adapter.ts) instead.
class HttpsProxyAgent {
  constructor() {
    throw new Error("the CRM client does not use axios's proxy agent");
  }
}
module.exports = { HttpsProxyAgent };
