// In the extension bundle js-yaml is not inlined: it is its own file, dist/js-yaml.js, required from beside
// dist/extension.js (the client reads YAML helper files with it).
module.exports = require("./js-yaml.js");
