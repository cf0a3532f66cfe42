// Hostile transcripts: the compaction functions and SkillTool#reattach given transcripts that are
// not arrays (a TypeError naming the transcript) and arrays whose messages are deep, wide, cyclic,
// Proxies with throwing traps, throwing getters or toJSON, bigints, symbols or lone surrogates
// (a result or an { error }, never a throw). See support/hostile-cases.mjs.
import { hostileSuite } from "./support/hostile-suite.mjs";

hostileSuite((c) => c.group === "transcripts");
