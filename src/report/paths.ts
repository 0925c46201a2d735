/** JSON Pointer → the dotted form people read: /inputSchema/properties/a~1b → inputSchema.properties["a/b"]. */
export function pointerToDisplay(pointer: string): string {
  if (pointer === "") return "";
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment, i) =>
      /^[A-Za-z_$][\w$-]*$/.test(segment)
        ? `${i ? "." : ""}${segment}`
        : /^\d+$/.test(segment)
          ? `[${segment}]`
          : `[${JSON.stringify(segment)}]`,
    )
    .join("");
}
