/** Editing journeys with auto save after 1,000 ms, VS Code for the Web's default: they hold as with it off. */
import { editingJourneys } from "./editingJourneys";

editingJourneys("afterDelay");
