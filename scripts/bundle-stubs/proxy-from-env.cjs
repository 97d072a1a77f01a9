// Bundle stand-in for `proxy-from-env`: only axios's own Node adapter reads it (see https-proxy-agent.cjs).
module.exports = { getProxyForUrl: () => "" };
