// Hostile callers of the synchronous exports and of the class methods: wrong types, deep, wide and
// cyclic values, throwing getters and Proxy traps, lying lengths, lone surrogates, re-entrant
// callbacks. See support/hostile-cases.mjs for the table and support/hostile.mjs for the contract.
import { hostileSuite } from "./support/hostile-suite.mjs";

hostileSuite((c) => c.group === "args");
