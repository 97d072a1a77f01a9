// Bundle stand-in for `form-data`: the CRM client sends only JSON and URL-encoded bodies, and the real
// package pulls in mime-db (about 140 KB). axios imports it eagerly; this keeps multipart out of the bundle.
class FormData {
  constructor() {
    throw new Error("multipart/form-data bodies are not supported by the CRM client");
  }
}
module.exports = FormData;
module.exports.default = FormData;
