/** The notebook journeys again with auto save after 1,000 ms, VS Code for the Web's default: a chart, a bind and a report hold as with it off. */
import { withAutoSave } from "./session";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the mode is set, not before
withAutoSave("afterDelay", () => require("./notebooks.test"));
