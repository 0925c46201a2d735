/** Facts about JSON Schema keywords that more than one layer needs. Pure data. */

/**
 * Keywords whose children are names, not keywords: under `properties`, a member called "type"
 * or "$ref" is a property name.
 */
export const NAME_CONTAINERS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
]);
