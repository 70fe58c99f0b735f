/**
 * Field-level markers read by the REST layer (src/rest):
 * - `graphOnly`: graph navigation (e.g. `Organization.members`) — present in GraphQL, absent from REST JSON.
 * - `restNull`: a nullable field whose `null` means something (e.g. `role: null` = guest) and is therefore
 *   kept in REST JSON; every other null field is omitted there, as GitBook's API omits absent optionals.
 */
export const graphOnly = { graphOnly: true } as const;
export const restNull = { restNull: true } as const;
