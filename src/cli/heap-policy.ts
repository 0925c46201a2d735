/**
 * When JavaScriptCore collects garbage. It sizes its heap's limits at each full collection from
 * what was live then, and a process starts with small ones. Reading a big lockfile outruns them
 * at once (10,000 tools whose schemas all differ: 120 MB of text, then 70 MB of parsed tools),
 * and the collector then marks the whole heap twice while lint works (an eden and then a full
 * collection, about 100 ms each, with our thread held to 20–60% of the processor meanwhile).
 * One full collection after the text is read and before it is parsed marks almost nothing (the
 * text is one object) and sizes the limits to a heap that already holds the text: about 2 ms,
 * and the parse and the work that follows run without a collection.
 */

/**
 * An input this big gets the collection. Below it the text does not dominate the heap: lockfiles
 * of 2.5 and 11 MB were collected during lint either way, and the extra collection cost 2–5 ms.
 */
export const HEAP_SIZING_CHARS = 32 * 1024 * 1024;

/**
 * Before parsing an input of `chars` characters: one full collection (`collect`) when it is big,
 * the first time only (a second lockfile's collection would mark the first one's tools).
 */
export function collectorBeforeBigInput(collect: () => void): (chars: number) => void {
  let collected = false;
  return (chars) => {
    if (collected || chars < HEAP_SIZING_CHARS) return;
    collected = true;
    collect();
  };
}

/** The process's one: Bun's synchronous full collection (under another runtime its own policy stands). */
export const collectBeforeBigInput = collectorBeforeBigInput(() => {
  if (typeof Bun !== "undefined" && typeof Bun.gc === "function") Bun.gc(true);
});
