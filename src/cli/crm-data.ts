/** The `crm-data` command (built to dist/crm-data.js, the package's bin). */
import { runBin } from "./bin";
import { runDataCli } from "./dataCli";

runBin("crm-data", runDataCli);
