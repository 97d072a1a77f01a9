export { startEmulator, type Emulator, type EmulatorOptions, type Faults, type FaultName, type LoggedRequest, type OrgKind } from "./server";
export { DEMO, HOSTILE_BODIES, type SeedName } from "./seed";
