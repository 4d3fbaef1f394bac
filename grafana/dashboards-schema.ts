// The dashboards' JSON held to Grafana's own dashboard type (@grafana/schema) by `npm run typecheck`: a missing
// required field (schemaVersion, a panel's type), a number where a string belongs or a misshapen panel fails the
// type-check, naming the file. TypeScript reads a JSON file with its strings widened (`"type": "query"` is a string),
// so the schema's literal unions and string enums are widened the same way here (Widened): their spelling is
// Grafana's to judge, their place and shape are checked – and no key the schema does not have. The SQL of every panel is run against a real mirror by
// test/export/postgres-grafana.test.ts.
import type { Dashboard } from '@grafana/schema';
import spend from './dashboards/gpuledger-spend.json' with { type: 'json' };

type Widened<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer E)[]
        ? Widened<E>[]
        : T extends object
          ? { [K in keyof T]: Widened<T[K]> }
          : T;

// A JSON value is not an object literal, so `satisfies` alone lets a misspelt key through (`"titel"`): NoExtraKeys
// turns every key the schema does not know (on any of a union's members) into `never`, which the JSON cannot satisfy.
type KeysOf<S> = S extends unknown ? keyof S : never;
type ValueOf<S, K extends PropertyKey> = S extends unknown ? (K extends keyof S ? S[K] : never) : never;
type NoExtraKeys<T, S> = unknown extends S
  ? T
  : T extends readonly (infer E)[]
    ? NonNullable<S> extends readonly (infer SE)[]
      ? NoExtraKeys<E, SE>[]
      : T
    : T extends object
      ? { [K in keyof T]: K extends KeysOf<NonNullable<S>> ? NoExtraKeys<T[K], ValueOf<NonNullable<S>, K>> : never }
      : T;

export const DASHBOARDS = {
  'gpuledger-spend.json': spend satisfies Widened<Dashboard> satisfies NoExtraKeys<typeof spend, Dashboard>,
};
