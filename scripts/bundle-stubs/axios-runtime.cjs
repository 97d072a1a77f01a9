// In the extension bundle axios is not inlined: it is its own file, dist/axios.js, required from beside
// dist/extension.js when the first org connection is made (activation makes none). Each export is a getter, so
// importing the client loads nothing; the names are those of axios-entry.mjs.
let axios;
const load = () => (axios ??= require("./axios.js"));
Object.defineProperty(exports, "__esModule", { value: true });
for (const name of ["default", "AxiosError", "AxiosHeaders", "CanceledError", "isAxiosError"]) {
  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
}
