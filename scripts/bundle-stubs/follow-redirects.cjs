// Bundle stand-in for `follow-redirects`: the CRM client fixes maxRedirects to 0 (the REST API does not
// redirect), so axios never takes its redirect wrapper; the plain Node modules are enough.
module.exports = { http: require("node:http"), https: require("node:https") };
