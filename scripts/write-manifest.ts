/** `npm run manifest`: the agent tools' contributions written into package.json and package.nls.json (tool-manifest.ts). */
import { writeToolManifest } from "./tool-manifest";

writeToolManifest();
