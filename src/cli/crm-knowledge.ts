/** The `crm-knowledge` command (built to dist/crm-knowledge.js, the package's bin). */
import { runBin } from "./bin";
import { runKnowledgeCli } from "./knowledgeCli";

runBin("crm-knowledge", runKnowledgeCli);
