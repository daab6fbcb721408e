// The one function of the `jmespath` package (jmespath.js 0.16) the json_query filter uses.
declare module 'jmespath' {
  export function search(data: unknown, expression: string): unknown;
}
