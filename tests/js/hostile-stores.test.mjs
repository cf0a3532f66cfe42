// Hostile stores: SkillStorage objects that throw, reject, never answer, answer with the wrong
// types, lying typed arrays, poisoned error values, endless cursors and enormous files; and
// discovery options (scopes, roots) of the wrong shape. A store's misbehaviour costs the skills it
// touches a diagnostic each (storage-list-failed, storage-read-failed); the other scope's skills
// load, every promise settles, and the instance stays sound. See support/hostile-cases.mjs.
import { hostileSuite } from "./support/hostile-suite.mjs";

hostileSuite((c) => c.group === "stores");
