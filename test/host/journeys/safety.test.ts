/** Safety journeys with auto save off, desktop VS Code's default: a save is the person's Ctrl+S. */
import { safetyJourneys } from "./safetyJourneys";

safetyJourneys("off");
