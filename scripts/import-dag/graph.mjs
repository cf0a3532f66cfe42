// Circles in the graphs of edges that rust.mjs and js.mjs give: one graph per folder, its nodes
// the folder's entries. Each strongly connected component of more than one node is a circle; one
// circle through it is named, with the line that makes each of its steps.

/** The edges grouped per folder: Map folder -> Map from -> Map to -> where (the first seen). */
function byFolder(edges) {
  const folders = new Map();
  for (const e of edges) {
    if (e.from === e.to) continue;
    if (!folders.has(e.folder)) folders.set(e.folder, new Map());
    const g = folders.get(e.folder);
    if (!g.has(e.from)) g.set(e.from, new Map());
    if (!g.get(e.from).has(e.to)) g.get(e.from).set(e.to, e.where);
  }
  return folders;
}

/** The strongly connected components of `g` with more than one node (Tarjan). */
function components(g) {
  const nodes = new Set([...g.keys(), ...[...g.values()].flatMap((m) => [...m.keys()])]);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** A shortest circle through the first node of component `c` of `g`, as a list of nodes. */
function circle(g, c) {
  const inside = new Set(c);
  const start = c[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of g.get(v)?.keys() ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = prev.get(v); p !== null; p = prev.get(p)) path.unshift(p);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...c, start];
}

/** Every circle among `edges`: `{ folder, nodes, steps }`, steps naming the line of each edge. */
export function circles(edges) {
  const found = [];
  for (const [folder, g] of [...byFolder(edges)].sort(([a], [b]) => a.localeCompare(b))) {
    for (const c of components(g)) {
      const nodes = circle(g, c);
      const steps = nodes.slice(1).map((to, k) => `${nodes[k]} -> ${to} (${g.get(nodes[k]).get(to)})`);
      found.push({ folder, nodes, steps, size: c.length });
    }
  }
  return found;
}
