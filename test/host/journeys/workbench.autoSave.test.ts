/** The workbench journeys again with auto save after 1,000 ms, VS Code for the Web's default: they hold as with it off. */
import { withAutoSave } from "./session";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the mode is set, not before
withAutoSave("afterDelay", () => require("./workbench.test"));
