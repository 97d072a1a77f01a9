/** Editing journeys with auto save off, desktop VS Code's default: a save is the person's Ctrl+S. */
import { editingJourneys } from "./editingJourneys";

editingJourneys("off");
