/**
 * The JSON Schema meta-schemas the interpreting validator checks schemas against, and whose
 * declared keywords meta-check.ts reads: draft-07, and 2020-12 as its top document plus its
 * vocabularies. Taken from ajv's package, so both validators read the same documents.
 */
import META_2020_APPLICATOR from "ajv/dist/refs/json-schema-2020-12/meta/applicator.json" with { type: "json" };
import META_2020_CONTENT from "ajv/dist/refs/json-schema-2020-12/meta/content.json" with { type: "json" };
import META_2020_CORE from "ajv/dist/refs/json-schema-2020-12/meta/core.json" with { type: "json" };
import META_2020_FORMAT from "ajv/dist/refs/json-schema-2020-12/meta/format-annotation.json" with { type: "json" };
import META_2020_META_DATA from "ajv/dist/refs/json-schema-2020-12/meta/meta-data.json" with { type: "json" };
import META_2020_UNEVALUATED from "ajv/dist/refs/json-schema-2020-12/meta/unevaluated.json" with { type: "json" };
import META_2020_VALIDATION from "ajv/dist/refs/json-schema-2020-12/meta/validation.json" with { type: "json" };
import META_2020 from "ajv/dist/refs/json-schema-2020-12/schema.json" with { type: "json" };
import META_07 from "ajv/dist/refs/json-schema-draft-07.json" with { type: "json" };

export { META_07, META_2020 };

/** The 2020-12 vocabularies META_2020 combines. */
export const META_2020_VOCABULARIES = [
  META_2020_APPLICATOR,
  META_2020_CONTENT,
  META_2020_CORE,
  META_2020_FORMAT,
  META_2020_META_DATA,
  META_2020_UNEVALUATED,
  META_2020_VALIDATION,
];
